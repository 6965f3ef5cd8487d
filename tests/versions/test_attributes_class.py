"""VolumeAttributesClass in static binding (``volume_attributes_class``, v1.34+).

The matching rows are upstream's TestFindMatchVolumeWithNode (component-helpers
storage/volume/pv_helpers_test.go of v1.36.2; FindMatchingVolume is the same from v1.31.8
to v1.36.2): rows run with the gate on and off run under 1.33 and 1.34, rows run with it
on under 1.34 only. Upstream's two gate-off rows with the field set ("fail-on-error",
"fail-volumes-vac") cannot arise in ksched: v1.30-v1.33's API server drops the field on
create, so they are rows of the dropped objects instead. The nil/"" rows follow
``ptr.Deref(..., "")`` in FindMatchingVolume.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ksched_cli.api.attributes_class import admit_attributes_class
from ksched_cli.api.storage import PersistentVolume, PersistentVolumeClaim
from ksched_cli.errors import KschedError
from ksched_cli.manifests.loader import read_cluster
from ksched_cli.plugins.volumebinding.pv_helpers import find_matching_volume
from ksched_cli.versions.releases import release
from tests.plugins.volume_helpers import affinity, make_pv, make_pvc

V133 = release("1.33").features
V134 = release("1.34").features
MODES = ("ReadWriteOnce", "ReadOnlyMany")
NODES = {n: {"key1": f"value{n}"} for n in (1, 2, 3, 4)}


def _volume(uid: str, name: str, capacity: str, available: bool = True, **kw: Any) -> Any:
    return uid, make_pv(name, capacity, access_modes=MODES,
                        phase="Available" if available else "Pending", **kw)


def _volumes(vac: str | None = None) -> list[tuple[str, PersistentVolume]]:
    rows = [
        _volume("local-small", "local001", "5G"),
        _volume("local-pd-very-large", "local002", "200E", storage_class="large"),
        _volume("affinity-pv", "affinity001", "100G", storage_class="wait",
                node_affinity=affinity("key1", "value1")),
        _volume("affinity-pv2", "affinity002", "150G", storage_class="wait",
                node_affinity=affinity("key1", "value1")),
        _volume("affinity-prebound", "affinity003", "100G", storage_class="wait",
                claim="myns/claim02", node_affinity=affinity("key1", "value1")),
        _volume("affinity-pv3", "affinity003", "200G", storage_class="wait",
                node_affinity=affinity("key1", "value3")),
        _volume("affinity-pv4", "affinity004", "200G", False, storage_class="wait",
                node_affinity=affinity("key1", "value4")),
    ]
    for _, pv in rows:
        pv.attributes_class = vac
    return rows


def _claim(name: str, modes: tuple[str, ...] = ("ReadWriteOnce",),
           vac: str | None = None) -> PersistentVolumeClaim:
    claim = make_pvc(name, "wait", "100G", access_modes=modes, namespace="myns")
    claim.attributes_class = vac
    return claim


BOTH = (V133, V134)
ON = (V134,)
# name, claim, node, PVs' class, excluded, expected uid ("" none), releases
ROWS = [
    ("success-match", _claim("claim01"), 1, None, set(), "affinity-pv", BOTH),
    ("success-prebound", _claim("claim02"), 1, None, set(), "affinity-prebound", BOTH),
    ("success-exclusion", _claim("claim01"), 1, None, {"affinity001"}, "affinity-pv2", BOTH),
    ("fail-exclusion", _claim("claim01"), 1, None,
     {"affinity001", "affinity002", "affinity002-vac"}, "", BOTH),
    ("fail-accessmode", _claim("claim01", ("ReadWriteMany",)), 1, None, set(), "", BOTH),
    ("fail-nodeaffinity", _claim("claim01"), 2, None, set(), "", BOTH),
    ("fail-prebound-node-affinity", _claim("claim02"), 3, None, set(), "", BOTH),
    ("fail-nonavaliable", _claim("claim04"), 4, None, set(), "", BOTH),
    ("success-bad-and-good-node-affinity", _claim("claim03"), 3, None, set(),
     "affinity-pv3", BOTH),
    ("success-match-with-vac", _claim("claim01", vac="gold"), 1, "gold", set(),
     "affinity-pv", ON),
    ("fail-vac", _claim("claim01", vac="silver"), 1, None, set(), "", ON),
    ("fail-prebound-vac", _claim("claim02", vac="silver"), 1, "gold", set(), "", ON),
    # Deref: absent and "" are the same (no class) on either side.
    ("empty-claim-absent-pvs", _claim("claim01", vac=""), 1, None, set(), "affinity-pv", ON),
    ("absent-claim-empty-pvs", _claim("claim01"), 1, "", set(), "affinity-pv", ON),
    ("absent-claim-gold-pvs", _claim("claim01"), 1, "gold", set(), "", ON),
    ("absent-claim-gold-prebound", _claim("claim02"), 1, "gold", set(), "", ON),
]


@pytest.mark.parametrize(
    ("claim", "node", "vac", "excluded", "expected", "features"),
    [pytest.param(*row[1:6], f, id=f"{row[0]}-{f.version}") for row in ROWS for f in row[6]],
)
def test_find_matching_volume(
    claim: PersistentVolumeClaim, node: int, vac: str | None, excluded: set[str],
    expected: str, features: Any,
) -> None:
    volumes = _volumes(vac)
    uids = {id(pv): uid for uid, pv in volumes}
    found = find_matching_volume(claim, [pv for _, pv in volumes], NODES[node], excluded,
                                 features.volume_attributes_class)
    assert (uids[id(found)] if found is not None else "") == expected


# Upstream's gate-off rows, as v1.33 stores their objects (the field dropped): both match.
DROPPED = [
    ("fail-on-error", "gold", None),
    ("fail-volumes-vac", None, "gold"),
]


@pytest.mark.parametrize(("claim_vac", "pv_vac"), [r[1:] for r in DROPPED],
                         ids=[r[0] for r in DROPPED])
def test_gate_off_rows_after_drop(claim_vac: str | None, pv_vac: str | None) -> None:
    claim = _claim("claim01", vac=claim_vac)
    volumes = _volumes(pv_vac)
    admit_attributes_class(claim, False)
    for _, pv in volumes:
        admit_attributes_class(pv, False)
    assert claim.attributes_class is None
    assert all(pv.attributes_class is None for _, pv in volumes)
    found = find_matching_volume(claim, [pv for _, pv in volumes], NODES[1], set(), False)
    assert found is volumes[2][1]  # affinity-pv


PV = """apiVersion: v1
kind: PersistentVolume
metadata: {{name: pv-x}}
spec:
  capacity: {{storage: 1Gi}}
  accessModes: [ReadWriteOnce]
  volumeAttributesClassName: {vac}
  {source}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {{name: c, namespace: default}}
spec:
  accessModes: [ReadWriteOnce]
  volumeAttributesClassName: {claim_vac}
  resources: {{requests: {{storage: 1Gi}}}}
"""
CSI = "csi: {driver: d.example.com, volumeHandle: h}"
EMPTY = "spec.volumeAttributesClassName: Required value: an empty string is disallowed"
NO_CSI = "spec.csi: Required value: has to be specified when using volumeAttributesClassName"
BAD = ('spec.volumeAttributesClassName: Invalid value: "Bad_Name": a lowercase RFC 1123 '
       "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
       "start and end with an alphanumeric character")

# vac of the PV, its source, the claim's vac, release, expected (pv, claim) or problems
LOAD_ROWS = [
    ("gold", CSI, "gold", "1.33", (None, None)),
    ("gold", CSI, "gold", "1.30", (None, None)),
    ("gold", CSI, "gold", "1.34", ("gold", "gold")),
    ("gold", CSI, '""', "1.36", ("gold", "")),
    ('""', "local: {path: /x}", "Bad_Name", "1.33", (None, None)),
    ('""', "local: {path: /x}", "Bad_Name", "1.34", [EMPTY, NO_CSI, BAD]),
    ("gold", "local: {path: /x}", "gold", "1.36", [NO_CSI]),
]


@pytest.mark.parametrize(("vac", "source", "claim_vac", "version", "expected"), LOAD_ROWS)
def test_loader_drops_or_validates(
    tmp_path: Path, vac: str, source: str, claim_vac: str, version: str, expected: Any
) -> None:
    path = tmp_path / "storage.yaml"
    path.write_text(PV.format(vac=vac, source=source, claim_vac=claim_vac), encoding="utf-8")
    if isinstance(expected, list):
        with pytest.raises(KschedError) as info:
            read_cluster([str(path)], kubernetes_version=version)
        text = info.value.render()
        assert [p for p in (EMPTY, NO_CSI, BAD) if p in text] == expected
        return
    cluster = read_cluster([str(path)], kubernetes_version=version).cluster
    pv = cluster.persistent_volumes["pv-x"]
    claim = cluster.persistent_volume_claims["default/c"]
    assert (pv.attributes_class, claim.attributes_class) == expected
