import { onAccent } from './accent.js';

/**
 * The widget's whole stylesheet, adopted by its shadow root (a constructed sheet is no inline style, so a
 * host page's strict CSP allows it). Pixel units only, every inherited property set on `.root`: the host
 * page's rem size, fonts and colours never reach inside.
 * On small screens every button is at least 40 px either way, a target a finger can hit.
 */
export function widgetCss(accent: string): string {
  return `
:host{all:initial}
.root{--accent:${accent};--on-accent:${onAccent(accent)};--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--bubble:#f1f3f5;--focus:#0b57d0;
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);text-align:start;letter-spacing:normal;word-spacing:normal;text-transform:none;font-style:normal;font-weight:400;white-space:normal}
.root.dark{--bg:#16181d;--fg:#eef0f3;--muted:#aab2bd;--line:#3a3f48;--bubble:#262a31;--focus:#8ab4f8}
@media (prefers-color-scheme:dark){.root.auto{--bg:#16181d;--fg:#eef0f3;--muted:#aab2bd;--line:#3a3f48;--bubble:#262a31;--focus:#8ab4f8}}
*,*::before,*::after{box-sizing:border-box}
button,input,textarea{font:inherit;color:inherit;letter-spacing:inherit}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.launcher{position:fixed;bottom:20px;right:20px;z-index:2147483000;width:56px;height:56px;border-radius:28px;border:0;padding:0;cursor:pointer;background:var(--accent);color:var(--on-accent);box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}
.left .launcher{right:auto;left:20px}
.launcher svg{width:26px;height:26px;fill:currentColor}
.panel{display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:12px;overflow:hidden}
.floating .panel{position:fixed;bottom:88px;right:20px;z-index:2147483000;width:380px;height:600px;max-height:calc(100vh - 108px);box-shadow:0 8px 30px rgba(0,0,0,.25)}
.floating.left .panel{right:auto;left:20px}
.inline .panel{width:100%;height:520px}
.panel[hidden]{display:none}
.head{display:flex;align-items:center;gap:10px;padding:12px 14px;background:var(--accent);color:var(--on-accent)}
.head img{width:32px;height:32px;border-radius:16px;object-fit:cover}
h2{flex:1;margin:0;font-size:16px;font-weight:600;line-height:1.3;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:inherit}
.icon{background:transparent;border:0;color:inherit;cursor:pointer;padding:6px;border-radius:6px;font-size:13px;line-height:1}
.icon:focus-visible{outline-color:var(--on-accent)}
.log{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px}
.msg{max-width:85%;padding:8px 12px;border-radius:12px;background:var(--bubble);overflow-wrap:anywhere}
.msg.mine{align-self:flex-end;background:var(--accent);color:var(--on-accent)}
.msg.mine a{color:inherit}
.msg p{margin:0 0 6px}.msg p:last-child{margin:0}
.msg ul,.msg ol{margin:4px 0;padding-inline-start:20px}
.msg code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;background:rgba(127,127,127,.18);padding:1px 4px;border-radius:4px}
.msg pre{margin:6px 0;padding:8px;overflow-x:auto;background:rgba(127,127,127,.18);border-radius:6px}
.msg pre code{background:none;padding:0}
a{color:inherit;text-decoration:underline}
.who{display:block;font-size:12px;font-weight:600;color:var(--muted);margin-bottom:2px}
.system{align-self:center;text-align:center;font-size:13px;color:var(--muted);padding:2px 8px}
.error{color:var(--fg);border:1px solid var(--line);border-radius:8px;padding:6px 10px}
.sources{margin-top:6px;font-size:12px;color:var(--muted)}
.sources ol{margin:2px 0 0;padding-inline-start:18px}
.rate{display:flex;gap:4px;margin-top:4px}
.rate button{border:1px solid var(--line);background:var(--bg);border-radius:6px;padding:3px 8px;cursor:pointer;display:flex}
.rate svg{width:14px;height:14px;fill:currentColor}.rate svg.down{transform:rotate(180deg)}
.rate button[aria-pressed=true]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
.chips{display:flex;flex-wrap:wrap;gap:6px;padding:0 14px 8px}
.chip{border:1px solid var(--accent);background:var(--bg);color:var(--fg);border-radius:16px;padding:6px 12px;cursor:pointer;text-align:start}
.actions{display:flex;justify-content:center;padding:0 14px 6px}
.link{background:none;border:0;color:var(--fg);text-decoration:underline;cursor:pointer;padding:4px;font-size:13px}
form.ask{display:flex;gap:8px;padding:10px 14px;border-top:1px solid var(--line)}
textarea,input{font-size:16px;flex:1;min-width:0;resize:none;border:1px solid var(--muted);border-radius:8px;padding:8px 10px;background:var(--bg);color:var(--fg);line-height:1.3}
textarea{height:42px}
.send{border:0;border-radius:8px;padding:0 14px;background:var(--accent);color:var(--on-accent);cursor:pointer;font-weight:600}
.send:disabled{opacity:.6;cursor:default}
.lead{display:flex;flex-direction:column;gap:8px;padding:12px 14px;border-top:1px solid var(--line)}
.lead p{margin:0;font-weight:600}
.lead label{display:flex;flex-direction:column;gap:2px;font-size:13px}
.lead .bad:empty{display:none}
.lead .bad{color:var(--fg);font-size:12px;font-weight:600}
.lead .row{display:flex;gap:8px}
.brand{text-align:center;font-size:11px;color:var(--muted);padding:0 0 6px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:479px){.floating .panel{inset:0;width:100%;height:100%;max-height:none;border-radius:0;border:0}.icon,.send,.link,.chip,.rate button{min-width:40px;min-height:40px}.rate button{align-items:center}}
@media (prefers-reduced-motion:no-preference){.launcher{transition:transform .15s}.launcher:hover{transform:scale(1.05)}}
`;
}
