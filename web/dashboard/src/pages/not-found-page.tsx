import { Link } from 'wouter';
import { PageHeader } from '../components/page-header';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" description="This address leads nowhere in the dashboard." />
      <p>
        <Link href="/agents">Go to the agents</Link>
      </p>
    </>
  );
}
