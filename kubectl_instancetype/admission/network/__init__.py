"""KubeVirt's network admitter (pkg/network/admitter) and DRA admitter (pkg/dra/admitter), one module per
KubeVirt file: :mod:`.rules` holds the entry points and their ordered tables; :mod:`.netsource`,
:mod:`.state`, :mod:`.binding`, :mod:`.netiface`, :mod:`.ports`, :mod:`.dhcp`, :mod:`.dra` and
:mod:`.discontinued` the rules; :mod:`.claims` the DRA admitter; :mod:`.spec` and :mod:`.address` how a spec,
a MAC and a PCI address read as KubeVirt's Go types and parsers read them."""
