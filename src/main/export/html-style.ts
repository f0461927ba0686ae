/**
 * The inline style sheet of the HTML export: light and dark (prefers-color-scheme), readable
 * print (for the PDF export), system fonts only (no remote assets).
 */
export const EXPORT_CSS = `
:root { color-scheme: light dark; --bg: #fbfaf7; --fg: #1f1d1a; --muted: #6b655c; --line: #e2ddd3;
  --card: #ffffff; --user: #f1ece2; --code: #f4f1ea; --accent: #8a5a2b; --err: #b3261e; --ok: #2e7d32;
  --add: #e6f4ea; --del: #fdecea; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1b1a18; --fg: #e9e4da; --muted: #a39b8e; --line: #3a3631; --card: #23211e;
    --user: #2c2924; --code: #2a2824; --accent: #d7a56f; --err: #f2b8b5; --ok: #a5d6a7;
    --add: #1f3324; --del: #3b2120; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0 1.25rem; }
header { padding-top: 1.5rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.45rem; margin: 0 0 .6rem; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0 0 1rem; font-size: .9rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
article.msg { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0; padding: .75rem 1rem; }
article.msg.user { background: var(--user); }
article.msg h2 { font-size: .85rem; font-weight: 600; color: var(--muted); margin: 0 0 .4rem; }
article.msg h2 time { font-weight: 400; margin-left: .5rem; }
.md > :first-child { margin-top: 0; } .md > :last-child { margin-bottom: 0; }
.md img { max-width: 100%; }
pre, code { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .75rem;
  overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; }
:not(pre) > code { background: var(--code); padding: 0 .25rem; border-radius: 4px; }
a { color: var(--accent); }
details { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .3rem .6rem; }
details > summary { cursor: pointer; color: var(--muted); overflow-wrap: anywhere; }
details[open] > summary { margin-bottom: .3rem; }
details.thinking .text { white-space: pre-wrap; font-style: italic; color: var(--muted); }
.tool-name { font-weight: 600; color: var(--fg); }
.kind { font-size: .8rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 .4rem; margin-left: .3rem; }
.status-failed, .error { color: var(--err); }
.status-completed { color: var(--ok); }
.label { font-size: .8rem; color: var(--muted); margin: .5rem 0 0; }
.diff .add { background: var(--add); display: block; }
.diff .del { background: var(--del); display: block; }
p.event { text-align: center; color: var(--muted); font-size: .85rem; margin: 1rem 0; }
p.event::before, p.event::after { content: " — "; }
.note { color: var(--muted); font-style: italic; }
footer { color: var(--muted); font-size: .8rem; padding-top: 1rem; padding-bottom: 2rem; border-top: 1px solid var(--line); margin-top: 2rem; }
@media print {
  body { background: #fff; color: #000; font-size: 11pt; }
  article.msg, details, pre { break-inside: avoid-page; }
  details > summary { list-style: none; }
}
`
