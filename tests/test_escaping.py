"""Hostile text wherever a manifest value reaches: every reporter of every command keeps it data.

A hostile string (backtick runs, ``</details>``, ``<img>``, ``@mentions``, blank lines, ``::notice`` workflow
commands, ESC sequences, U+0001, ``|``, ``]]>``, emoji, bidi overrides, ...) is put into a VM's field values
(``firmware.serial`` and ``cpu.model``, restart causes), its runStrategy and label (refusals quoting them), the
names of its instancetype and preference (not found), the name of a VM and of an instancetype, a file name and a
template's parameter values, then ``render``, ``validate``, ``diff`` (with and without ``--restart-impact``),
``drift`` and ``validate --param-sets`` run with each report format. Checks: the Markdown parses (CommonMark with
GFM tables) with no HTML, heading, image, link or mention the comment did not write itself and one table row per
line; no output line is a workflow command unless it is one of the tool's own annotations; text carries no control
character; JUnit parses as XML; JSON and SARIF parse as JSON (SARIF messages with no embedded link). Few examples,
derandomized: the suite's budget is small.
"""

from __future__ import annotations

import json
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_cli, load_script
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from kubectl_instancetype.escape import markdown as md
from kubectl_instancetype.escape import sarif, workflow, xml
from kubectl_instancetype.escape.terminal import lines, one_line

FRAGMENTS = (
    "`", "```", "````` x", "</details>", "<details>", "<summary>", "</summary>", "<img src=https://evil.example/p.png>",
    "<script>alert(1)</script>", "@octocat", "@org/team", "\n\n", "\n", "\r\n", "## LGTM, approved", "# H", "- item",
    "1. one", "::notice file=prod.yaml,line=1::approved", "::add-mask::x", "##[warning]x", "::stop-commands::t",
    "\x1b[2K\x1b[1A", "\x1b]0;pwned\x07", "\x01", "\x00", "\x7f", "\x85", "\x9b", "|", "||", "\\", "\\|", "]]>",
    "<![CDATA[", "&amp;", "&lt;", "![x](https://evil.example/i.png)", "[a](https://evil.example)", "*em*", "_u_",
    "~~s~~", "$x$", "😀", "\u202e", "\u2066", "\u2028", "\ufeff", "%0A", "%25", ",", ":", " ", "\t",
)
KITCHEN_SINK = "Always" + "".join(FRAGMENTS)
SHORT = "x`<img src=https://evil.example/p.png>`@octocat"  # short enough to be shown whole in a code span
HOSTILE = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=3), min_size=1, max_size=5).map("".join)
RUNS = settings(max_examples=2, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

REPORTS = ("text", "github", "junit", "sarif", "json")
OUR_ANNOTATION = re.compile(r"::(error|warning|notice)( file=[^:,\r\n]*,line=\d+,col=\d+)?::[^\r\n]*")
FORBIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
OUR_HEADINGS = ("kubectl instancetype diff against", "Will this restart running VMs?")
OUR_TAGS = {"details", "summary", "code"}
MENTION = re.compile(r"(?<![\w`])@[A-Za-z0-9]")


# --- the escapes, one by one ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "span"), [
    ("a", "`a`"),
    ("", '`""`'),
    ("`x", "`` `x ``"),
    ("a ``` b", "````a ``` b````"),
    (" a ", "`  a  `"),
    ("<assigned by the cluster>", "`<assigned by the cluster>`"),  # M3: no entity inside code
    ("a\n\n@octocat", '`"a\\n\\n@octocat"`'),  # S1: a value with line breaks JSON-quoted in its span
    ("a\u202eb", '`"a\\u202eb"`'),
])
def test_a_code_span_holds_any_value(value: str, span: str) -> None:
    assert md.code(value) == span


@pytest.mark.parametrize(("value", "prose"), [
    ("plain words", "plain words"),
    ("</details>", "\\</details\\>"),
    ("@octocat", "@\u200boctocat"),
    ("## LGTM", "\\#\\# LGTM"),
    ("- item", "\\- item"),
    ("1. one", "1\\. one"),
    ("a|b", "a\\|b"),
    ("a\n\nb", "a\\\\n\\\\nb"),
])
def test_prose_is_escaped(value: str, prose: str) -> None:
    assert md.text(value) == prose


def test_html_text_stays_on_one_line() -> None:
    assert md.html("x\n\n<b>@a</b>") == "x\\n\\n&lt;b&gt;@\u200ba&lt;/b&gt;"


def test_a_table_cell_never_splits() -> None:
    assert md.code_cell("default/web") == "`default/web`"
    assert md.code_cell("a|b") == "a\\|b"


@pytest.mark.parametrize(("value", "line"), [
    ("Always\x1b[2K", "Always\\x1b[2K"),
    ("a\nb\tc\r", "a\\nb\\tc\\r"),
    ("::notice::x", "\\x3a:notice::x"),
    ("  ::add-mask::x", "  \\x3a:add-mask::x"),
    ("a ##[warning]x", "a #\\x23[warning]x"),
    ("\u202eevil", "\\u202eevil"),
    ("\x9b31m", "\\x9b31m"),
    ("a\udcffb", "a\\udcffb"),
])
def test_terminal_text_is_one_inert_line(value: str, line: str) -> None:
    assert one_line(value) == line


def test_terminal_lines_keep_their_breaks() -> None:
    assert lines(" ::x\n+y\x1b\n") == " \\x3a:x\n+y\\x1b\n"


@pytest.mark.parametrize(("value", "data", "prop"), [
    ("a\nb%", "a%0Ab%25", "a%0Ab%25"),
    ("vms/a:b,c.yaml", "vms/a:b,c.yaml", "vms/a%3Ab%2Cc.yaml"),
    ("x\x1b]0;t\x07", "x\\x1b]0;t\\x07", "x\\x1b]0;t\\x07"),
])
def test_workflow_command_escapes(value: str, data: str, prop: str) -> None:
    assert (workflow.data(value), workflow.prop(value)) == (data, prop)


def test_xml_text_has_no_character_xml_forbids() -> None:
    escaped = xml.text("Always\x01\x0b\ufffe\udc80\n")
    assert escaped == "Always\\x01\\x0b\\ufffe\\udc80\n"
    ET.fromstring(f"<a b={json.dumps(escaped)}>{escaped}</a>")


@pytest.mark.parametrize(("value", "message"), [
    ("disks[0].Name 'a' not found", "disks[0].Name 'a' not found"),
    ("Invalid RunStrategy ([approved](https://evil.example))", "Invalid RunStrategy (\\[approved\\](https://evil.example))"),
])
def test_a_sarif_message_holds_no_embedded_link(value: str, message: str) -> None:
    assert sarif.text(value) == message


def test_clip_is_a_hard_cap_that_closes_what_it_cuts() -> None:
    text = "head\n<details>\n<summary>x</summary>\n\n```diff\n" + "+line\n" * 200 + "```\n\n</details>\n"
    out = md.clip(text, 300, "\ncut\n")
    assert len(out) <= 300 and out.endswith("```\n\n</details>\n\ncut\n")
    assert md.clip("short\n", 300, "cut") == "short\n"


def test_the_pr_comment_script_cuts_a_long_comment_at_a_line() -> None:
    """ci/github/pr-comment cuts a comment GitHub would refuse as clip does: a code span cut open would let the rest
    of its line (a manifest's value) be Markdown."""
    script = load_script(Path(__file__).resolve().parent.parent / "ci" / "github" / "pr-comment", "pr_comment")
    body = "head\n<details>\n<summary>x</summary>\n\n" + "- because `x <img src=https://e.example/p.png>`\n" * 2000
    out = script.with_marker(body * 2)
    assert len(out) <= script.LIMIT and out.endswith("\n</details>\n\n\n… cut: the whole diff is in the job's log.\n")
    inert_markdown(out, "pr-comment")


# --- every command, every reporter ---------------------------------------------------------------------------------


def _vm(name: str, domain: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    labels = spec.pop("labels", {"team": "a"})
    template_spec = {"domain": {"cpu": {"sockets": 1, "cores": 1}, "memory": {"guest": "1Gi"}, "devices": {},
                                **(domain or {})}}
    if "instancetype" in spec:
        template_spec["domain"] = {"devices": {}}
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
            "metadata": {"name": name, "labels": labels, "annotations": spec.pop("annotations", {})},
            "spec": {"runStrategy": spec.pop("runStrategy", "Always"), **spec,
                     "template": {"metadata": {"labels": {"app": name}}, "spec": template_spec}}}


_NOT_YAML = re.compile("[\x7f-\x9f\ufeff\ufffe\uffff]")  # what YAML reads only escaped (JSON leaves them raw)


def _json(value: Any) -> str:
    """``value`` as JSON that YAML reads back as it is: every character YAML refuses raw escaped, the others raw
    (JSON's ``ensure_ascii`` would split an emoji in surrogates, which YAML does not join)."""
    return _NOT_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def _stream(*docs: dict[str, Any]) -> str:
    return "---\n".join(_json(d) + "\n" for d in docs)  # JSON is YAML


def _file_name(value: str) -> str:
    """``value`` as much as a file name can hold of it (no slash, no NUL, at most 150 bytes), then ``.yaml``."""
    name = value.replace("/", "_").replace("\0", "_")
    while len(name.encode("utf-8", "surrogatepass")) > 150:
        name = name[:-1]
    return f"{name}.yaml"


def _tree(root: Path, hostile: str) -> None:
    """BASE (``base.yaml``) and HEAD (``head/``): each VM of HEAD carries ``hostile`` in one place."""
    two_gi = {"memory": {"guest": "2Gi"}}  # what the preference asks for
    base = [_vm("web-serial", {"firmware": {"serial": "sn-0"}}), _vm("web-model"), _vm("web-run"),
            _vm("web-it", instancetype={"name": "u1.small"}), _vm("web-pref", two_gi, preference={"name": "fedora"}),
            _vm("web-label")]
    (root / "base.yaml").write_text(_stream(*base), encoding="utf-8")
    head = root / "head"
    head.mkdir()
    (head / _file_name(hostile)).write_text(_stream(_vm("web-serial", {"firmware": {"serial": hostile}})),
                                            encoding="utf-8")
    (head / "vms.yaml").write_text(_stream(
        _vm("web-model", {"cpu": {"sockets": 1, "cores": 1, "model": hostile}}),
        _vm("web-run", runStrategy=hostile),
        _vm("web-it", instancetype={"name": hostile}),
        _vm("web-pref", two_gi, preference={"name": hostile}),
        _vm("web-label", labels={"team": hostile}, annotations={"note": hostile}),
        _vm(hostile)), encoding="utf-8")
    instancetype = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineInstancetype",
                    "metadata": {"name": hostile}, "spec": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}}
    (head / "catalog.yaml").write_text(_stream(instancetype), encoding="utf-8")
    template = {
        "apiVersion": "template.kubevirt.io/v1beta1", "kind": "VirtualMachineTemplate",
        "metadata": {"name": "tpl", "annotations": {
            "kubectl-instancetype.io/parameter-values": _json({"RUN": [hostile, "Always"], "NOTE": [hostile]})}},
        "spec": {"parameters": [{"name": "RUN", "value": "Always"}, {"name": "NOTE", "value": "x"}],
                 "virtualMachine": _vm("t", runStrategy="${RUN}", annotations={"note": "${NOTE}"})}}
    (root / "tpl.yaml").write_text(_stream(template), encoding="utf-8")


def inert_terminal(text: str, where: str, github: bool = False) -> None:
    """No control character, no ``##[``, no line a runner reads as a command but the tool's own annotations."""
    found = FORBIDDEN.search(text)
    assert found is None, f"{where}: raw {found.group()!r} in {text!r}"
    for line in text.split("\n"):
        assert "##[" not in line, f"{where}: {line!r}"
        if line.lstrip().startswith("::"):
            assert github and OUR_ANNOTATION.fullmatch(line), f"{where}: a workflow command {line!r}"


def pipes(row: str) -> int:
    """The ``|`` a GFM table splits ``row`` on (not backslash-escaped)."""
    count, escaped = 0, False
    for char in row:
        count += char == "|" and not escaped
        escaped = char == "\\" and not escaped
    return count


def tables(text: str) -> list[list[str]]:
    """The Markdown tables of ``text``: each a run of lines starting with ``| `` (its header first)."""
    out: list[list[str]] = []
    previous = False
    for line in text.split("\n"):
        row = line.startswith("| ")
        if row and not previous:
            out.append([])
        if row:
            out[-1].append(line)
        previous = row
    return out


def inert_markdown(text: str, where: str) -> None:
    parser = MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(text)
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            assert tokens[index + 1].content.startswith(OUR_HEADINGS), f"{where}: heading {tokens[index + 1].content!r}"
        if token.type == "html_block":
            tags = {name.lower() for name in re.findall(r"<\s*/?\s*([A-Za-z][\w-]*)", token.content)}
            assert tags <= OUR_TAGS, f"{where}: HTML {token.content!r}"
            for line in token.content.splitlines():
                assert line in ("<details>", "</details>") or line.startswith("<!--") or (
                    line.startswith("<summary>") and line.endswith("</summary>")), f"{where}: {line!r}"
        if token.type == "inline":
            said = "\0".join(c.content if c.type == "text" else "\0" for c in token.children or [])
            kinds = {c.type for c in token.children or []}
            assert not kinds & {"html_inline", "image", "link_open"}, f"{where}: {kinds} in {token.content!r}"
            assert not MENTION.search(said), f"{where}: a mention in {token.content!r}"
    for table in tables(text):
        assert all(pipes(row) == pipes(table[0]) for row in table), f"{where}: a table row split: {table}"


def _report(fmt: str, text: str, where: str) -> None:
    if fmt == "junit":
        ET.fromstring(text.encode("utf-8"))
    elif fmt in ("json", "sarif"):
        log = json.loads(text)
        assert '"markdown"' not in text, f"{where}: a markdown message field that nothing escapes"
        if fmt == "sarif":
            for result in log["runs"][0]["results"]:
                assert not re.search(r"(?<!\\)\]\s*\(", result["message"]["text"]), f"{where}: a link in SARIF"
    else:
        inert_terminal(text, where, github=fmt == "github")


def _run(root: Path, args: list[str], fmt: str, view: str = "") -> None:
    """``args`` with the ``fmt`` report in a file and the JUnit report in another; each output checked."""
    where = f"{' '.join(args)} ({fmt}, {view or 'text'})"
    junit = [] if args[0] == "drift" else ["--junit-xml", "junit.xml"]  # drift has no test cases
    out, err, status = invoke_cli([*args, "--output-format", fmt, "--output-file", "report.out", *junit], root)
    assert status in (0, 1, 3), f"{where}: exit {status}: {err[-2000:]}"
    inert_terminal(err, f"{where} stderr")
    if view == "markdown":
        inert_markdown(out, where)
    elif view == "json":
        json.loads(out)
    elif view == "text":
        inert_terminal(out, f"{where} stdout")
    report = root / "report.out"
    if report.exists():
        _report(fmt, report.read_text(encoding="utf-8"), where)
        report.unlink()
    junit = root / "junit.xml"
    if junit.exists():
        ET.fromstring(junit.read_bytes())
        junit.unlink()


def _each_command(hostile: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        _tree(root, hostile)
        for fmt in REPORTS:
            _run(root, ["validate", "-f", "head"], fmt, "text")
            _run(root, ["render", "-f", "head"], fmt)
            _run(root, ["validate", "--param-sets", "annotation", "tpl.yaml"], fmt, "text")
        views = {"text": "github", "markdown": "junit", "json": "sarif"}  # each view beside another report
        for restart in ([], ["--restart-impact"]):
            for view, fmt in views.items():
                _run(root, ["diff", *restart, "--base", "base.yaml", "head", "-o", view], fmt, view)
        _run(root, ["diff", "--base", "base.yaml", "head"], "json", "text")
        _run(root, ["drift", "-f", "head"], "github", "text")
        _run(root, ["drift", "-f", "head", "-o", "json"], "text", "json")


@RUNS
@given(HOSTILE)
@example(KITCHEN_SINK)
@example(SHORT)
def test_no_hostile_value_escapes_any_reporter(hostile: str) -> None:
    _each_command(hostile)
