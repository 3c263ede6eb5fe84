"""``drift --against``: Argo CD's and Flux's ignore rules applied as the tools apply them (issue 30: W2, W6, M3,
T1, H2, H3).

The reproducers are ``testdata/repros-t5/<id>-<name>/`` (copied from the team's ``shared/reliability/repros-t5/``,
whose README indexes them). The tools' documented examples are ``testdata/drift-rules/`` (its README names the
sources).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import TESTDATA, invoke_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_instancetype.gitops import drift as drift_module
from kubectl_instancetype.gitops.argoglob import glob_match
from kubectl_instancetype.gitops.ignore import FluxTarget, Rule, RuleIndex, normalized
from kubectl_instancetype.gitops.labelquery import parse
from kubectl_instancetype.gitops.rulefiles import rules_of
from kubectl_instancetype.yamlio import load_stream

REPROS = TESTDATA / "repros-t5"
DOCS = TESTDATA / "drift-rules"
W2 = REPROS / "W2-against-malformed-rules-cover-all"
W6 = REPROS / "W6-against-valid-rules-missed"
M3 = REPROS / "M3-against-nothing-recognised"
T1 = REPROS / "T1-against-wrong-types"
H2 = REPROS / "H2-against-unbounded"


def cli(*args: str, cwd: Path) -> tuple[str, str, int]:
    out, err, status = invoke_cli(list(args), cwd)
    assert status != 4 and "Traceback" not in err and "internal error" not in err, err
    return out, err, status


# --- W2: rules Argo CD does not apply cover nothing; rules it refuses are exit 3 at their line ---------------------


@pytest.mark.parametrize(("name", "status", "err"), [
    ("string-pointers.yaml", 3, "string-pointers.yaml:8:5: error: spec.ignoreDifferences[0].jsonPointers: must be a "
                                "list of strings, not the string '/spec/template/spec/domain/machine'\n"),
    ("no-group-kind.yaml", 3, "no-group-kind.yaml:6:5: error: spec.ignoreDifferences[0]: kind is required (Argo CD's "
                              "Application schema)\n"),
    ("root-pointer.yaml", 1, ""),
    ("cm-string-pointers.yaml", 3, "cm-string-pointers.yaml:5:3: error: data['resource.customizations.ignoreDifferences"
                                   ".kubevirt.io_VirtualMachine']: jsonPointers: must be a list of strings (Argo CD "
                                   "fails to read argocd-cm)\n"),
])
def test_w2_rules_argocd_does_not_apply_cover_nothing(name: str, status: int, err: str) -> None:
    out, stderr, code = cli("drift", "-f", "vm.yaml", "--against", name, cwd=W2)
    assert (code, stderr) == (status, err)
    assert out.splitlines()[0] == "vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (0 covered)"


def test_w2_a_rule_without_group_is_read_and_matches_only_the_core_group(tmp_path: Path) -> None:
    (tmp_path / "app.yaml").write_text("spec:\n  ignoreDifferences:\n  - kind: VirtualMachine\n"
                                       "    jsonPointers: [/metadata, /spec]\n")
    (tmp_path / "vm.yaml").write_text((W2 / "vm.yaml").read_text())
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "app.yaml", cwd=tmp_path)
    assert (code, err) == (1, "")
    assert "(0 covered)" in out.splitlines()[0]


# --- W6: rules Argo CD and Flux apply cover what they cover --------------------------------------------------------


@pytest.mark.parametrize("name", ["glob-group-kind.yaml", "empty-name.yaml", "jq-paths.yaml", "cm-all.yaml",
                                  "cm-resource-customizations.yaml", "flux-name-regex.yaml"])
def test_w6_rules_the_tools_apply_cover_every_field(name: str) -> None:
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", name, cwd=W6)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (9 covered)"


def test_w6_a_flux_name_regex_is_anchored(tmp_path: Path) -> None:
    text = (W6 / "flux-name-regex.yaml").read_text().replace('"fedora-.*"', '"fedora"')
    (tmp_path / "hr.yaml").write_text(text)
    (tmp_path / "vm.yaml").write_text((W6 / "vm.yaml").read_text())
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "hr.yaml", cwd=tmp_path)
    assert (code, err) == (1, "")
    assert "(0 covered)" in out.splitlines()[0]


# --- M3: a file with no rules the tool reads --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bare-list.yaml", "vm.yaml"])
def test_m3_a_file_without_rules_is_named(name: str) -> None:
    _out, err, code = cli("drift", "-f", "vm.yaml", "--against", name, cwd=M3)
    assert code == 3
    assert err == (f"{name}:1:1: error: --against: this file holds no rules this tool reads: no Argo CD Application "
                   "(or its spec.ignoreDifferences), argocd-cm ConfigMap or Flux HelmRelease (or its "
                   "spec.driftDetection)\n")


# --- T1: wrong types are exit 3 naming the file ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "err"), [
    ("int-ignore-differences.yaml", "int-ignore-differences.yaml:5:3: error: spec.ignoreDifferences: must be a list, "
                                    "not the number 5"),
    ("int-drift-ignore.yaml", "int-drift-ignore.yaml:5:35: error: spec.driftDetection.ignore: must be a list, not the "
                              "number 5"),
    ("int-target.yaml", "int-target.yaml:9:7: error: spec.driftDetection.ignore[0].target: must be a mapping, not the "
                        "number 5"),
    ("cm-yaml-error.yaml", "cm-yaml-error.yaml:5:3: error: data['resource.customizations.ignoreDifferences.kubevirt.io_"
                           "VirtualMachine']: not YAML (YAML syntax error: while parsing a flow node, did not find "
                           "expected node content; Argo CD fails to read argocd-cm)"),
])
def test_t1_wrong_types_are_input_errors(name: str, err: str) -> None:
    _out, stderr, code = cli("drift", "-f", "vm.yaml", "--against", name, cwd=T1)
    assert (code, stderr) == (3, err + "\n")


@pytest.mark.parametrize(("text", "err"), [
    ("spec:\n  ignoreDifferences:\n  - {kind: VirtualMachine, jsonPointer: [/spec]}\n",
     "r.yaml:3:28: error: spec.ignoreDifferences[0]: unknown field 'jsonPointer' (known: group, kind, name, namespace, "
     "jsonPointers, jqPathExpressions, managedFieldsManagers)"),
    ("spec:\n  ignoreDifferences:\n  - {kind: VirtualMachine, jqPathExpressions: ['.spec[']}\n",
     "r.yaml:3:48: error: jq expression '.spec[' does not compile (Argo CD fails every comparison): jq: error: "
     "syntax error, unexpected INVALID_CHARACTER"),
    ("spec:\n  driftDetection:\n    ignore:\n    - {paths: [/spec], target: {name: 'web-(['}}\n",
     "r.yaml:4:33: error: invalid name regex 'web-([': unterminated character set at position 5 (Flux fails "
     "the release)"),
    ("spec:\n  driftDetection:\n    ignore:\n    - {paths: [/spec], target: {name: '(?=a)'}}\n",
     "r.yaml:4:33: error: invalid name regex '(?=a)': lookaround and backreferences are not Go regular expression "
     "syntax (Flux fails the release)"),
    ("spec:\n  driftDetection:\n    ignore:\n    - {paths: [/spec], target: {labelSelector: 'a in b'}}\n",
     "r.yaml:4:33: error: invalid label selector: unable to parse requirement at 'a in b'"),
    ("spec:\n  driftDetection:\n    ignore:\n    - target: {kind: VirtualMachine}\n",
     "r.yaml:4:7: error: spec.driftDetection.ignore[0]: paths is required (Flux's HelmRelease schema)"),
    ("spec:\n  driftDetection: {mode: on}\n",
     "r.yaml:2:20: error: spec.driftDetection.mode: must be one of enabled, warn, disabled, not True"),
    ("data:\n  resource.customizations.ignoreDifferences.a_b_c: 'jsonPointers: [/spec]'\n",
     "r.yaml:2:3: error: group kind should be in format `resource.customizations.<type>.<group_kind>` or "
     "`resource.customizations.<type>.<kind>`, got group kind: 'a_b_c'"),
    ("data:\n  resource.customizations.colour.kubevirt.io_VirtualMachine: red\n",
     "r.yaml:2:3: error: data['resource.customizations.colour.kubevirt.io_VirtualMachine']: resource customization "
     "type colour not supported (Argo CD fails to read argocd-cm)"),
    ("data:\n  resource.customizations: |\n    kubevirt.io/VirtualMachine:\n      ignoreDifferences:\n"
     "        jsonPointers: [/spec]\n",
     "r.yaml:2:3: error: data['resource.customizations']: kubevirt.io/VirtualMachine.ignoreDifferences: must be a "
     "string holding YAML (Argo CD's ResourceOverride)"),
])
def test_malformed_rules_are_exit_3_at_their_line(tmp_path: Path, text: str, err: str) -> None:
    (tmp_path / "r.yaml").write_text(text)
    (tmp_path / "vm.yaml").write_text((T1 / "vm.yaml").read_text())
    _out, stderr, code = cli("drift", "-f", "vm.yaml", "--against", "r.yaml", cwd=tmp_path)
    assert code == 3
    assert stderr.startswith(err) and stderr.count("\n") == 1, stderr


# --- H2: --against is bounded like -f ------------------------------------------------------------------------------


def test_h2_against_is_a_regular_file_within_the_limit(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text((H2 / "vm.yaml").read_text())
    _out, err, code = cli("drift", "-f", "vm.yaml", "--against", "/dev/zero", cwd=tmp_path)
    assert (code, err) == (3, "/dev/zero:1:1: error: cannot read --against file: not a regular file\n")
    os.mkfifo(tmp_path / "fifo")
    _out, err, code = cli("drift", "-f", "vm.yaml", "--against", "fifo", cwd=tmp_path)  # no writer: never blocks
    assert (code, err) == (3, "fifo:1:1: error: cannot read --against file: not a regular file\n")
    (tmp_path / "big.yaml").write_text("spec:\n  ignoreDifferences: []\n" + "#" * 2000 + "\n")
    _out, err, code = cli("drift", "-f", "vm.yaml", "--against", "big.yaml", "--max-input-bytes", "1000",
                          cwd=tmp_path)
    assert (code, err) == (3, "big.yaml:1:1: error: input is larger than the limit of 1000 bytes (--max-input-bytes)\n")


# --- H3: the rule outputs and --against are linear in VMs ---------------------------------------------------------


def test_h3_the_argocd_cm_list_counts_each_pointer_once() -> None:
    """136 s for 8,000 VMs: every pointer of every VM was looked up in every VM's list."""
    pointers = [f"/spec/field{i}" for i in range(10)]
    entries = [("", f"vm-{i}", pointers) for i in range(20_000)]
    start = time.process_time()
    assert drift_module.shared_pointers(entries) == sorted(pointers)
    assert time.process_time() - start < 2.0  # quadratic: minutes
    assert drift_module.shared_pointers([*entries, ("", "x", pointers[:1]), ("", "y", [])]) == pointers[:1]


def test_h3_a_rule_naming_one_vm_is_tried_on_that_vm_only(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps({"spec": {"ignoreDifferences": [
        {"group": "kubevirt.io", "kind": "VirtualMachine", "name": f"vm-{i}", "jsonPointers": ["/spec"]}
        for i in range(5000)]}})
    found = rules_of(load_stream(text, "app.json")[0])
    assert found is not None
    index = RuleIndex.of(found.rules)
    tried: list[Rule] = []
    original = Rule.selects

    def counted(self: Rule, obj: dict[str, Any], namespace: str) -> bool:
        tried.append(self)
        return original(self, obj, namespace)

    monkeypatch.setattr(Rule, "selects", counted)
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm-42"}}
    assert [r.pointers for r in index.selecting(vm, "default")] == [("/spec",)]
    assert len(tried) == 1


# --- the tools' documented examples ------------------------------------------------------------------------------


def _rules(path: Path) -> tuple[list[Rule], list[str]]:
    rules: list[Rule] = []
    notices: list[str] = []
    for doc in load_stream(path.read_text(), path.name):
        found = rules_of(doc)
        assert found is not None, path
        rules.extend(found.rules)
        notices.extend(n.message for n in found.notices)
    return rules, notices


def _covered(path: Path, desired: dict[str, Any], live: dict[str, Any]) -> bool:
    rules, _ = _rules(path)
    namespace = str(live.get("metadata", {}).get("namespace") or "")
    selected = RuleIndex.of(rules).selecting(live, namespace)
    return normalized(desired, selected) == normalized(live, selected)


def _deployment(name: str = "guestbook", namespace: str = "default", replicas: int = 1,
                init: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": namespace},
            "spec": {"replicas": replicas, "template": {"spec": {
                "initContainers": [{"name": n, "image": n} for n in init], "containers": [{"name": "app"}]}}}}


ARGO = DOCS / "argocd-docs"
WEBHOOKS = {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
            "metadata": {"name": "w"}}


@pytest.mark.parametrize(("example", "desired", "live", "covered"), [
    ("1-replicas.yaml", _deployment(), _deployment(replicas=3), True),
    ("1-replicas.yaml", _deployment(), {**_deployment(replicas=3), "apiVersion": "extensions/v1beta1"}, False),
    ("2-replicas-named.yaml", _deployment(), _deployment(replicas=3), True),
    ("2-replicas-named.yaml", _deployment("other"), _deployment("other", replicas=3), False),
    ("2-replicas-named.yaml", _deployment(namespace="prod"), _deployment(namespace="prod", replicas=3), False),
    ("3-jq-init-container.yaml", _deployment(init=("setup",)), _deployment(init=("setup", "injected-init-container")),
     True),
    ("3-jq-init-container.yaml", _deployment(init=("setup",)), _deployment(init=("setup", "other")), False),
    ("4-managers.yaml", _deployment(), _deployment(replicas=3), False),  # managedFields: known to the cluster only
    ("5-slash-pointer.yaml", {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {}}},
     {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"node-role.kubernetes.io/worker": ""}}},
     True),
    ("6-cm-webhook-cabundle.yaml",
     {**WEBHOOKS, "webhooks": [{"name": "a", "clientConfig": {"service": {"name": "s"}}}]},
     {**WEBHOOKS, "webhooks": [{"name": "a", "clientConfig": {"service": {"name": "s"}, "caBundle": "LS0t"}}]}, True),
    ("7-cm-deployment-managers.yaml", _deployment(), _deployment(replicas=3), False),
    ("8-cm-all.yaml", _deployment(), _deployment(replicas=3), True),
    ("8-cm-all.yaml", _deployment(), {**_deployment(), "metadata": {"name": "guestbook", "namespace": "default",
                                                                    "labels": {"a": "b"}}}, False),
])
def test_argocd_documented_examples(example: str, desired: dict[str, Any], live: dict[str, Any],
                                    covered: bool) -> None:
    assert _covered(ARGO / example, desired, live) is covered


@pytest.mark.parametrize("example", ["4-managers.yaml", "7-cm-deployment-managers.yaml", "8-cm-all.yaml"])
def test_managed_fields_managers_say_what_offline_cannot_know(example: str) -> None:
    _rules_read, notices = _rules(ARGO / example)
    assert notices == ["managedFieldsManagers: which fields a manager owns is known only to the cluster (the "
                       "object's managedFields): offline this rule covers nothing. There, the fields KubeVirt's "
                       "mutating webhook adds belong to the manager that applied the VM, the annotations and "
                       "finalizer virt-controller adds to the manager virt-controller (its user agent)"]


def test_managed_fields_managers_warn_in_drift(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text((W6 / "vm.yaml").read_text())
    (tmp_path / "cm.yaml").write_text((ARGO / "8-cm-all.yaml").read_text())
    _out, err, code = cli("drift", "-f", "vm.yaml", "--against", "cm.yaml", cwd=tmp_path)
    assert code == 1
    assert err.startswith("cm.yaml:3:3: warning: managedFieldsManagers: which fields a manager owns")


FLUX = DOCS / "flux-docs"


@pytest.mark.parametrize(("example", "desired", "live", "covered"), [
    ("1-replicas.yaml", _deployment(), _deployment(replicas=3), True),
    ("1-replicas.yaml", _deployment(), {**_deployment(), "metadata": {"name": "guestbook", "labels": {"a": "b"}}},
     False),
    ("2-target-kind.yaml", _deployment(), _deployment(replicas=3), True),
    ("2-target-kind.yaml", {**_deployment(), "kind": "StatefulSet"}, {**_deployment(replicas=3), "kind": "StatefulSet"},
     False),
    ("3-whole-document.yaml", _deployment(), {**_deployment(replicas=3), "metadata": {"name": "x"}}, True),
])
def test_flux_documented_examples(example: str, desired: dict[str, Any], live: dict[str, Any],
                                  covered: bool) -> None:
    assert _covered(FLUX / example, desired, live) is covered


def _object(api: str, kind: str, name: str, namespace: str = "apps", **meta: Any) -> dict[str, Any]:
    return {"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": namespace, **meta}}


@pytest.mark.parametrize(("obj", "paths"), [
    (_object("source.toolkit.fluxcd.io/v1", "GitRepository", "x"), ["/spec/a", "/spec/g"]),
    (_object("toolkit.fluxcd.io/v1", "GitRepository", "x"), ["/spec/g"]),  # .*. needs a character before toolkit
    (_object("helm.toolkit.fluxcd.io/v2beta2", "HelmRelease", "x"), ["/spec/a", "/spec/b", "/spec/c", "/spec/g"]),
    (_object("helm.toolkit.fluxcd.io/v2", "HelmChart", "x"), ["/spec/a", "/spec/c", "/spec/g"]),
    (_object("apps/v1", "Deployment", "podinfo-canary"), ["/spec/d", "/spec/g"]),
    (_object("apps/v1", "Deployment", "my-podinfo"), ["/spec/g"]),  # anchored
    (_object("apps/v1", "Deployment", "x", "flux-system"), ["/spec/e", "/spec/g"]),
    (_object("apps/v1", "Deployment", "x", annotations={"environment": "production"}), ["/spec/f", "/spec/g"]),
    (_object("apps/v1", "Deployment", "x", labels={"environment": "staging"}), []),
    (_object("apps/v1", "Deployment", "x", labels={"environment": "prod"}), ["/spec/g"]),
])
def test_flux_documented_target_selectors(obj: dict[str, Any], paths: list[str]) -> None:
    """notin also holds for an object without the label (apimachinery's labels.Requirement)."""
    rules, _ = _rules(FLUX / "target-selectors.yaml")
    selected = RuleIndex.of(rules).selecting(obj, obj["metadata"]["namespace"])
    assert [p for r in selected for p in r.pointers] == paths


# --- the pieces, as the tools' code defines them ------------------------------------------------------------------


@pytest.mark.parametrize(("pattern", "text", "match"), [
    ("*", "kubevirt.io", True), ("*", "", True), ("", "", True), ("", "kubevirt.io", False),
    ("*.io", "kubevirt.io", True), ("kubevirt.?o", "kubevirt.io", True), ("kubevirt.io", "kubevirtxio", False),
    ("{kubevirt,cdi.kubevirt}.io", "cdi.kubevirt.io", True), ("Virtual[MN]achine", "VirtualMachine", True),
    ("Virtual[!M]achine", "VirtualMachine", False), ("[a-z]*", "kubevirt.io", True), ("\\*", "*", True),
    ("\\*", "a", False), ("[", "[", False), ("{a,b", "a", False),  # gobwas cannot compile: matches nothing
])
def test_argocd_globs_are_gobwas_globs(pattern: str, text: str, match: bool) -> None:
    assert glob_match(pattern, text) is match


@pytest.mark.parametrize(("selector", "labels", "match"), [
    ("environment = production", {"environment": "production"}, True),
    ("environment=production,tier", {"environment": "production"}, False),
    ("environment notin (staging)", {}, True),
    ("environment in (a, b)", {"environment": "b"}, True),
    ("!legacy", {"legacy": "1"}, False),
    ("x!=1", {}, True),
    ("size>3", {"size": "4"}, True),
    ("size<3", {"size": "x"}, False),
])
def test_label_selector_text(selector: str, labels: dict[str, str], match: bool) -> None:
    assert parse(selector)(labels) is match


@pytest.mark.parametrize("selector", ["a in b", "a=b,", "(", "size>x"])
def test_label_selector_text_refused(selector: str) -> None:
    with pytest.raises(ValueError):
        parse(selector)


def _argo(**entry: Any) -> list[Rule]:
    found = rules_of(load_stream(json.dumps({"spec": {"ignoreDifferences": [
        {"group": "*", "kind": "*", **entry}]}}), "app.json")[0])
    assert found is not None
    return list(found.rules)


@pytest.mark.parametrize(("entry", "after"), [
    ({"jsonPointers": ["/"]}, {"a": {"b": 1}, "l": [1, 2]}),  # the key "" at the root: nothing
    ({"jsonPointers": [""]}, {"a": {"b": 1}, "l": [1, 2]}),  # Argo CD: nothing (Flux: the whole object)
    ({"jsonPointers": ["/a/b"]}, {"a": {}, "l": [1, 2]}),
    ({"jsonPointers": ["/l/1", "/l/0"]}, {"a": {"b": 1}, "l": []}),  # one patch after the other
    ({"jsonPointers": ["/l/-1"]}, {"a": {"b": 1}, "l": [1, 2]}),  # no negative indices in Argo CD
    ({"jsonPointers": ["/missing/x", "/a"]}, {"l": [1, 2]}),  # a failing patch is skipped, the next applied
    ({"jqPathExpressions": [".l[] | select(. == 2)"]}, {"a": {"b": 1}, "l": [1]}),
    ({"jqPathExpressions": [".a.b[]"]}, {"a": {"b": 1}, "l": [1, 2]}),  # a jq error: the patch is skipped
    ({"jqPathExpressions": [".a, .l"]}, {}),
])
def test_argocd_normalisation(entry: dict[str, Any], after: dict[str, Any]) -> None:
    assert normalized({"a": {"b": 1}, "l": [1, 2]}, _argo(**entry)) == after


def test_flux_normalisation_counts_negative_indices_and_skips_missing_paths() -> None:
    rule = Rule("Flux", _argo()[0].location, FluxTarget(), ("/missing", "/l/-1"))
    assert normalized({"l": [1, 2]}, [rule]) == {"l": [1]}
    assert normalized({"l": [1, 2]}, [Rule("Flux", rule.location, None, ("",))]) is None


def test_argocd_and_flux_outputs_escape_what_the_other_tool_reads(tmp_path: Path) -> None:
    """A Flux target name is a regular expression: the rule printed for ``web.1`` must not select ``webx1``."""
    flux = drift_module.flux_drift_detection([("", "web.1", ["/spec"])])
    target = flux["spec"]["driftDetection"]["ignore"][0]["target"]
    assert target["name"] == "web\\.1"
    found = rules_of(load_stream(json.dumps(flux), "f.json")[0])
    assert found is not None
    index = RuleIndex.of(found.rules)
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "web.1"}}
    assert len(index.selecting(vm, "default")) == 1
    assert index.selecting({**vm, "metadata": {"name": "webx1"}}, "default") == []


def test_a_jq_program_that_never_ends_is_skipped_after_argocds_second(tmp_path: Path) -> None:
    """libjq keeps the interpreter: the programs run in a worker that is ended after Argo CD's limit."""
    (tmp_path / "vm.yaml").write_text((W6 / "vm.yaml").read_text())
    (tmp_path / "app.yaml").write_text("spec:\n  ignoreDifferences:\n  - group: kubevirt.io\n    kind: VirtualMachine\n"
                                       "    jqPathExpressions: ['def f: f; f', '.metadata, .spec']\n")
    start = time.monotonic()
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "app.yaml", cwd=tmp_path)
    assert time.monotonic() - start < 30
    assert code == 0
    assert out.splitlines()[0] == "vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (9 covered)"
    assert err == ("app.yaml:3:5: warning: jq expression 'def f: f; f' ran longer than 1 s: Argo CD skips it (its "
                   "ignore.normalizer.jq.timeout), and so did this run\n")


def test_jq_runner_skips_failing_programs_and_remembers_slow_ones() -> None:
    from kubectl_instancetype.cli.jqrun import JqRunner

    runner = JqRunner(limit=0.5)
    try:
        assert runner((".a.b[]", ".l[0]", "def f: f; f", "[.a, .l] | .[]"), {"a": {"b": 1}, "l": [1, 2]}) == \
            {"a": {"b": 1}, "l": [2]}  # an error, a patch, a loop, two results: only the patch applies
        assert runner.timed_out == ["def f: f; f"]
        start = time.monotonic()
        assert runner(("def f: f; f",), {"a": 1}) == {"a": 1}
        assert time.monotonic() - start < 0.4  # not run again
    finally:
        runner.close()


_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.sampled_from(
    ["/spec", "", "/", ".spec", "kubevirt.io", "VirtualMachine", "*", "web-.*", "(", "[", "a in b", ".[] | .x", "del("])
_JSON = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["group", "kind", "name", "namespace", "jsonPointers", "jqPathExpressions",
                     "managedFieldsManagers", "paths", "target", "labelSelector", "mode", "ignore", "x"]),
    inner, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_JSON, where=st.sampled_from(["app", "fragment", "flux", "cm", "cm-old"]))
def test_hostile_rules_are_read_or_refused_never_crash(value: Any, where: str) -> None:
    """T1: whatever the types, a rules document is read or refused with an InputError at a position."""
    from kubectl_instancetype.errors import InputError

    document = {
        "app": {"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", "spec": {"ignoreDifferences": value}},
        "fragment": {"spec": {"ignoreDifferences": value}},
        "flux": {"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease", "spec": {"driftDetection": value}},
        "cm": {"kind": "ConfigMap", "metadata": {"name": "argocd-cm"},
               "data": {"resource.customizations.ignoreDifferences.all": json.dumps(value)}},
        "cm-old": {"kind": "ConfigMap", "metadata": {"name": "argocd-cm"},
                   "data": {"resource.customizations": json.dumps({"kubevirt.io/VirtualMachine": value})}},
    }[where]
    try:
        found = rules_of(load_stream(json.dumps(document), "r.json")[0])
    except InputError as exc:
        assert exc.location is not None and exc.location.path == "r.json"
        return
    assert found is not None
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "web"}, "spec": {"a": 1}}
    selected = RuleIndex.of(found.rules).selecting(vm, "default")
    normalized(vm, selected)


def test_flux_leaves_out_a_vm_annotated_drift_detection_disabled(tmp_path: Path) -> None:
    """helm-controller's exclusion selector (its docs' "Ignore annotation"): for Flux only."""
    annotation = "  annotations:\n    helm.toolkit.fluxcd.io/driftDetection: disabled\n"
    vm = (W6 / "vm.yaml").read_text().replace("  name: fedora-web\n", "  name: fedora-web\n" + annotation)
    (tmp_path / "vm.yaml").write_text(vm)
    (tmp_path / "hr.yaml").write_text("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: a}\n"
                                      "spec:\n  driftDetection: {mode: enabled}\n")
    (tmp_path / "app.yaml").write_text("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: a}\n"
                                       "spec: {}\n")
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "hr.yaml", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (9 covered)"
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "app.yaml", cwd=tmp_path)
    assert (code, err) == (1, "")
    assert "(0 covered)" in out.splitlines()[0]


def test_rules_in_a_list_as_kubectl_get_prints_them(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text((W6 / "vm.yaml").read_text())
    app = (W6 / "glob-group-kind.yaml").read_text().replace("\n", "\n    ")
    (tmp_path / "apps.yaml").write_text(f"apiVersion: v1\nkind: List\nitems:\n  - {app}\n")
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "apps.yaml", cwd=tmp_path)
    assert (code, err) == (0, ""), (tmp_path / "apps.yaml").read_text()
    assert out.splitlines()[0] == "vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (9 covered)"
    broken = app.replace("[/metadata, /spec]", "7")
    (tmp_path / "apps.yaml").write_text(f"apiVersion: v1\nkind: List\nitems:\n  - {broken}\n")
    _out, err, code = cli("drift", "-f", "vm.yaml", "--against", "apps.yaml", cwd=tmp_path)
    assert (code, err) == (3, "apps.yaml:11:9: error: spec.ignoreDifferences[0].jsonPointers: must be a list of "
                              "strings, not the number 7\n")


def test_an_applicationsets_template_rules_are_its_applications(tmp_path: Path) -> None:
    (tmp_path / "vm.yaml").write_text((W6 / "vm.yaml").read_text())
    (tmp_path / "set.yaml").write_text(
        "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: vms}\nspec:\n  template:\n"
        "    metadata: {name: '{{.cluster}}-vms'}\n    spec:\n      ignoreDifferences:\n"
        "      - {group: kubevirt.io, kind: VirtualMachine, jsonPointers: [/metadata, /spec]}\n")
    out, err, code = cli("drift", "-f", "vm.yaml", "--against", "set.yaml", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "vm.yaml:3:1: VirtualMachine default/fedora-web: 9 fields will drift (9 covered)"
