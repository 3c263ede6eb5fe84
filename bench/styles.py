"""The YAML styles people write VirtualMachines in, for ``bench/run.py --styles`` (issue 25).

Each style is one VM template (``{i}``, ``{team}``, ``{it}``, ``{pref}`` filled in per VM); ``mixed`` is a
repository where every style occurs, VM by VM. The tests generate the same styles (tests/test_yaml_styles.py),
so what is measured here is what is checked there.
"""

from __future__ import annotations

import json

# What the plain styles share: a VM naming an instancetype and a preference, up to its domain.
_HEAD = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm-{i}
  namespace: team-{team}
spec:
  runStrategy: Always
  instancetype:
    name: {it}
  preference:
    name: {pref}
  template:
    spec:
      domain:
"""

BLOCK = """\
# VM {i}: managed in git, expanded by kubectl-instancetype
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm-{i}
  namespace: team-{team}
spec:
  runStrategy: Always
  instancetype:
    name: {it}  # size
  preference:
    name: {pref}
  template:
    spec:
      domain:
        devices:
          interfaces:
          - name: default
            masquerade: {{}}
      networks:
      - name: default
        pod: {{}}
      volumes:
      - name: rootdisk
        containerDisk:
          image: quay.io/containerdisks/fedora:41
"""

# examples/vm.yaml, KubeVirt's docs and ``virtctl create vm``: ``devices: {}``
FLOW_DEVICES = _HEAD + """\
        devices: {{}}
      volumes:
      - name: containerdisk
        containerDisk:
          image: quay.io/containerdisks/fedora:latest
"""

# yamllint's indent-sequences and many editors: sequences indented under their key
INDENTED = _HEAD + """\
        devices:
          disks:
            - name: root
              disk:
                bus: virtio
      volumes:
        - name: root
          containerDisk:
            image: quay.io/containerdisks/fedora:41
"""

# both of the above, a quoted image and comments
EVERYTHING = """\
# VM {i}
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: "vm-{i}"
  namespace: team-{team}  # the team's namespace
spec:
  runStrategy: Always
  instancetype:
    name: {it}
  preference:
    name: {pref}
  template:
    spec:
      domain:
        devices: {{}}
      volumes:
        - name: root
          # the image every team uses
          containerDisk:
            image: "quay.io/containerdisks/fedora:41"
"""

# a flow mapping with a colon in a plain scalar: kubectl reads "quay.io/containerdisks/fedora:41"
FLOW_COLON = _HEAD + """\
        devices: {{}}
      volumes:
      - name: root
        containerDisk: {{image: quay.io/containerdisks/fedora:41}}  # pinned
"""

CRLF = FLOW_DEVICES.replace("\n", "\r\n")


def _json(i: int, team: int, it: str, pref: str) -> str:
    vm = {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
        "metadata": {"name": f"vm-{i}", "namespace": f"team-{team}"},
        "spec": {"runStrategy": "Always", "instancetype": {"name": it}, "preference": {"name": pref},
                 "template": {"spec": {"domain": {"devices": {}}, "volumes": [
                     {"name": "root", "containerDisk": {"image": "quay.io/containerdisks/fedora:41"}}]}}},
    }
    return json.dumps(vm, indent=2) + "\n"


TEMPLATES = {
    "block": BLOCK,
    "flow-devices": FLOW_DEVICES,
    "indented": INDENTED,
    "everything": EVERYTHING,
    "flow-colon": FLOW_COLON,
    "crlf": CRLF,
}
STYLES = (*TEMPLATES, "json", "mixed")
SINGLE = ("block", "flow-devices", "indented", "everything", "flow-colon", "crlf")  # one YAML stream of many VMs


def vm(style: str, i: int, team: int, it: str, pref: str) -> str:
    """VM ``i`` written in ``style`` (``mixed``: the styles in turn)."""
    if style == "mixed":
        style = STYLES[i % (len(STYLES) - 1)]
    if style == "json":
        return _json(i, team, it, pref)
    return TEMPLATES[style].format(i=i, team=team, it=it, pref=pref)


def stream(style: str, count: int, pick: object) -> str:
    """``count`` VMs of one YAML ``style`` in one multi-document stream (``pick(i)``: instancetype, preference)."""
    docs = []
    for i in range(count):
        it, pref = pick(i)  # type: ignore[operator]
        docs.append(vm(style, i, i % 10, it, pref))
    sep = "---\r\n" if style == "crlf" else "---\n"
    return sep.join(docs)


def hand_sized(text: str) -> str:
    """``text`` with its VMs sized by hand instead (no instancetype nor preference; a guest memory and CPU
    topology under ``domain``): what ``suggest --write`` rewrites."""
    import re

    crlf = "\r\n" in text
    lf = text.replace("\r\n", "\n")
    lf = re.sub(r"  (instancetype|preference):\n    name: [^\n]*\n", "", lf)
    lf = lf.replace("      domain:\n", "      domain:\n        cpu:\n          cores: 1\n        memory:\n"
                                      "          guest: 4Gi\n")
    if lf.lstrip().startswith("{"):  # one JSON VM
        vm = json.loads(lf)
        del vm["spec"]["instancetype"], vm["spec"]["preference"]
        vm["spec"]["template"]["spec"]["domain"].update({"cpu": {"cores": 1}, "memory": {"guest": "4Gi"}})
        lf = json.dumps(vm, indent=2) + "\n"
    return lf.replace("\n", "\r\n") if crlf else lf
