"""``--write`` on every YAML style people write VMs in (issue 25): the styles ``bench/run.py`` measures.

For each style (``bench/styles.py``): the written file reads back as exactly what ``render`` stores, every
document takes the splice path (no round trip through the editor), ``--check`` passes afterwards, comments
stay. Property tests generate VMs in every style, flow collections with unquoted colons included, and
hostile texts the one reader must refuse with a located error, never a crash.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, invoke_cli, load_script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_instancetype.errors import InputError, InternalLimitError
from kubectl_instancetype.gitops.stored import stored_form
from kubectl_instancetype.yamlio import roundtrip
from kubectl_instancetype.yamlio.load import load_stream, resolve_plain
from kubectl_instancetype.yamlio.roundtrip import RewriteError, rewrite
from kubectl_instancetype.yamlio.splice import splice

styles = load_script(ROOT / "bench" / "styles.py", "bench_styles")
INSTANCETYPES = ("u1.medium", "u1.large", "cx1.large", "o1.xlarge")
PREFERENCES = ("fedora", "rhel.9", "ubuntu", "windows.11")


def pick(i: int) -> tuple[str, str]:
    return INSTANCETYPES[i % len(INSTANCETYPES)], PREFERENCES[i % len(PREFERENCES)]


def _write(tmp_path: Path, text: str, name: str = "vms.yaml") -> tuple[Path, str]:
    f = tmp_path / name
    f.write_bytes(text.encode("utf-8"))
    before = dict(roundtrip.WRITE_PATHS)
    _, err, status = invoke_cli(["render", "--write", "-f", name], tmp_path)
    assert status == 0, err
    editor = roundtrip.WRITE_PATHS["editor"] - before.get("editor", 0)
    return f, f"editor:{editor}"


def _stored(tmp_path: Path, name: str) -> list[object]:
    out, err, status = invoke_cli(["render", "-o", "json", "-f", name], tmp_path)
    assert status == 0, err
    data = json.loads(out)
    return list(data["items"] if data.get("kind") == "List" else [data])


@pytest.mark.parametrize("style", styles.STYLES)
def test_write_every_style_on_the_splice_path(tmp_path: Path, style: str) -> None:
    text = styles.stream(style, 5, pick) if style != "json" else styles.vm("json", 0, 0, *pick(0))
    (tmp_path / "orig.yaml").write_bytes(text.encode("utf-8"))
    expected = [stored_form(d.data, s) for d, s in zip(load_stream(text, "x"), _stored(tmp_path, "orig.yaml"),
                                                        strict=True)]
    f, paths = _write(tmp_path, text)
    assert paths == "editor:0"  # every document spliced: no round trip per VM
    written = f.read_bytes().decode("utf-8")
    assert [d.data for d in load_stream(written, "x")] == expected
    for comment in ("# VM 1", "# the team's namespace", "# the image every team uses", "# pinned", "# size"):
        assert (comment in written) == (comment in text)
    if style == "crlf":
        assert "\n" not in written.replace("\r\n", "")
    out, err, status = invoke_cli(["render", "--check", "-f", "vms.yaml"], tmp_path)
    assert (status, out) == (0, ""), err


def test_flow_devices_becomes_a_block_in_the_documents_indentation() -> None:
    text = styles.vm("everything", 1, 1, "u1.medium", "fedora")
    new = load_stream(text, "x")[0].data
    new["spec"]["template"]["spec"]["domain"]["devices"] = {"disks": [{"name": "root", "disk": {"bus": "virtio"}}]}
    out = splice(text, load_stream(text, "x")[0].data, new)
    assert out is not None
    assert ("        devices:\n          disks:\n            - name: root\n              disk:\n"
            "                bus: virtio\n      volumes:\n") in out


def test_keys_added_to_a_flow_mapping_with_a_word_colon_stay_flow() -> None:
    text = "a:\n  c: {image: quay.io/x:41}  # pinned\n"
    out = splice(text, {"a": {"c": {"image": "quay.io/x:41"}}},
                 {"a": {"c": {"image": "quay.io/x:41", "imagePullPolicy": "IfNotPresent", "n": "a b"}}})
    assert out == 'a:\n  c: {image: quay.io/x:41, imagePullPolicy: IfNotPresent, "n": "a b"}  # pinned\n'


def test_suggest_reads_a_flow_colon_and_keeps_the_comment(tmp_path: Path) -> None:
    f = tmp_path / "vm.yaml"
    f.write_text(
        "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: fedora-web\nspec:\n"
        "  runStrategy: Always\n  template:\n    spec:\n      domain:\n"
        "        cpu: {sockets: 1, cores: 1, threads: 1}\n"
        "        memory: {guest: 4Gi}\n        features: {acpi: {}, smm: {}}\n"
        "        firmware: {bootloader: {efi: {secureBoot: true}}}\n        devices:\n          rng: {}\n"
        "          disks:\n          - name: containerdisk\n            disk: {bus: virtio}\n"
        "          interfaces:\n          - name: default\n            masquerade: {}\n            model: virtio\n"
        "      networks:\n      - name: default\n        pod: {}\n      volumes:\n      - name: containerdisk\n"
        "        containerDisk: {image: quay.io/containerdisks/fedora:41}  # the image\n")
    _, err, status = invoke_cli(["suggest", "--write", "-f", "vm.yaml"], tmp_path)
    assert status == 0, err
    assert "instancetype u1.medium, preference fedora: exact" in err
    text = f.read_text()
    assert "containerDisk: {image: quay.io/containerdisks/fedora:41}  # the image\n" in text
    assert text.endswith("  instancetype:\n    name: u1.medium\n  preference:\n    name: fedora\n")


# --- properties ------------------------------------------------------------------------------------------------

_WORD = st.text(alphabet="abcxyz019./-", min_size=1, max_size=8).filter(
    lambda s: isinstance(resolve_plain(s), str) and not s.startswith(("-", ".")))


@st.composite
def _flow_value(draw: st.DrawFn) -> str:
    """A plain scalar with colons inside words, as a flow collection holds it: ``quay.io/x:41``."""
    parts = draw(st.lists(_WORD, min_size=1, max_size=3))
    return ":".join(parts)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(style=st.sampled_from(styles.SINGLE), image=_flow_value(), added=_flow_value(), count=st.integers(1, 3))
def test_write_of_generated_styles_reads_back_as_the_new_data(style: str, image: str, added: str, count: int) -> None:
    """A stream of VMs in one style, with a flow colon in its image, rewritten to hold a changed copy of each:
    the result reads back as the new data, and documents that do not change keep their bytes."""
    text = styles.stream(style, count, pick).replace("quay.io/containerdisks/fedora:41", image)
    docs = load_stream(text, "x")
    new = {}
    for doc in docs[::2]:
        data = json.loads(json.dumps(doc.data))
        spec = data["spec"]["template"]["spec"]
        spec["domain"]["devices"] = {"interfaces": [{"name": "default", "masquerade": {}}]}
        disk = next(v for v in spec["volumes"])["containerDisk"]
        disk["imagePullPolicy"] = added
        new[doc.index] = data
    out = rewrite(text, new, "x")
    assert [d.data for d in load_stream(out, "x")] == [new.get(d.index, d.data) for d in docs]


_HOSTILE = st.text(alphabet=st.sampled_from(list("ab:{}[],#'\"\\ \n\t-?!&*%|>@`\x01\x85\u2028\ud800\ufeff9")),
                   max_size=60)


@settings(deadline=None)
@given(text=_HOSTILE)
def test_the_reader_answers_hostile_text_with_data_or_a_located_error(text: str) -> None:
    try:
        docs = load_stream(text, "f.yaml")
    except InternalLimitError:
        return
    except InputError as exc:
        assert exc.location is not None and exc.location.path == "f.yaml"
        assert "<unicode string>" not in exc.message and "\n" not in exc.message
        return
    new = {d.index: {**d.data, "added": {"k": "quay.io/x:41"}} for d in docs if isinstance(d.data, dict)}
    try:  # every text read can be rewritten, or is refused with a located error
        out = rewrite(text, new, "f.yaml")
    except RewriteError as exc:
        assert exc.location is not None and exc.location.path == "f.yaml"
        return
    assert [d.data for d in load_stream(out, "f.yaml")] == [new.get(d.index, d.data) for d in docs]


@settings(deadline=None)
@given(key=_WORD, value=_flow_value(), other=_WORD)
def test_word_colons_read_as_go_yaml_reads_them(key: str, value: str, other: str) -> None:
    """In a flow mapping a colon before a non-blank is part of the plain scalar (go-yaml v2); block
    context reads the same text the same way; quoted, the same string."""
    flow = load_stream(f"{key}: {{{other}: {value}}}\n", "x")[0].data
    block = load_stream(f"{key}:\n  {other}: {value}\n", "x")[0].data
    quoted = load_stream(f'{key}: {{{other}: "{value}"}}\n', "x")[0].data
    assert flow == block == quoted == {key: {other: resolve_plain(value) if ":" not in value else value}}
