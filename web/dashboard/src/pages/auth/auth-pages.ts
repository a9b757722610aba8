/** The pages used without a session, loaded together: one chunk, small, for the first visit. */
export { ForgotPasswordPage } from './forgot-password-page';
export { InvitationPage } from './invitation-page';
export { ResetPasswordPage } from './reset-password-page';
export { SetupPage } from './setup-page';
export { SignInPage } from './sign-in-page';
export { SignUpPage } from './sign-up-page';
