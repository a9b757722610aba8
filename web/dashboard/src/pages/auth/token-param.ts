import { useSearchParams } from 'wouter';

/** The one-time token a link from an e-mail (or the setup line of the log) carries as `?token=`. */
export function useTokenParam(): string {
  const [params] = useSearchParams();
  return params.get('token') ?? '';
}
