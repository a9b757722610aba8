import { Route, Router, Switch } from 'wouter';

/** Routes of the dashboard (DESIGN §7: these URLs are a contract; state lives in the query string). */
export function App() {
  return (
    <Router base="/dashboard">
      <Switch>
        <Route>
          <main className="page">
            <h1>Parley</h1>
          </main>
        </Route>
      </Switch>
    </Router>
  );
}
