import { Field } from '../../components/field';

/** A password input with the API's rule as its hint. */
export function PasswordField({
  label = 'Password',
  name = 'password',
  error,
  autoComplete = 'new-password',
}: {
  label?: string;
  name?: string;
  error?: string;
  autoComplete?: 'new-password' | 'current-password';
}) {
  return (
    <Field label={label} error={error} hint={autoComplete === 'new-password' ? 'At least 10 characters.' : undefined}>
      {(control) => <input {...control} className="input" type="password" name={name} autoComplete={autoComplete} required />}
    </Field>
  );
}
