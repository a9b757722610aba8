/**
 * Whether the conversations members start in an agent's playground (the team trying its agents) are shown
 * and counted; the inbox and analytics leave them out unless this is checked.
 */
export function PlaygroundToggle({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check playground-toggle">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>
        Include playground <span className="muted">— the team’s own test questions</span>
      </span>
    </label>
  );
}
