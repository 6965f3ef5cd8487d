"""Behaviour switches between kube-scheduler releases (kube-scheduler's ``feature.Features``).

One engine serves every release: plugins, the queue and the config layer read the
switches of the release being replayed instead of keeping per-release copies. Each
switch records the release whose default turned it on and the source it was ported
from, so ``ksched versions`` and docs/ARCHITECTURE.md can say where behaviour came from.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..record import field_specs, record

# Where each release's code was read (see docs/ARCHITECTURE.md, "Versions").
SRC_131 = "k8s.io/kubernetes v1.31.8, vendored in openshift-kni/scheduler-plugins@d732734a7"
SRC_132 = "k8s.io/kubernetes v1.32.5, vendored in openshift-kni/scheduler-plugins@626961baa"
SRC_133 = "k8s.io/kubernetes v1.33.3, vendored in openshift-kni/scheduler-plugins@0c967825a"
SRC_134 = "k8s.io/kubernetes v1.34.7, vendored in openshift-kni/scheduler-plugins@3d6d3a01b"
SRC_135 = "k8s.io/kubernetes v1.35.7, vendored in openshift-kni/scheduler-plugins@2117d3e30"


def _switch(release: str, source: str, what: str) -> Any:
    return field(default=False, metadata={"release": release, "source": source, "what": what})


@record(frozen=True)
class Features:
    """What differs from v1.30.6; every switch at its default is exactly v1.30.6."""

    # The minor release these switches describe, for messages ("kube-scheduler v1.32 ...").
    version: str = "1.30"

    match_label_keys_in_pod_affinity: bool = _switch(
        "1.31",
        "kubernetes/kubernetes pkg/registry/core/pod/strategy.go mutatePodAffinity "
        "(PrepareForCreate), MatchLabelKeysInPodAffinity beta from v1.31 per its release notes",
        "a created pod's affinity matchLabelKeys/mismatchLabelKeys join its labelSelectors "
        "(v1.30's API server drops them)",
    )
    pre_filter_result_rejectors: bool = _switch(
        "1.31",
        f"{SRC_131}: schedule_one.go findNodesThatFitPod (diagnosis.UnschedulablePlugins from "
        "RunPreFilterPlugins' plugins with nodes)",
        "the plugins whose PreFilterResult narrowed the nodes count as the pod's rejectors",
    )
    pre_bind_rejection_fit_error: bool = _switch(
        "1.31",
        f"{SRC_131}: schedule_one.go bindingCycle (a rejected RunPreBindPlugins status is "
        "wrapped in a FitError over the chosen node; v1.30.6 returns the status itself)",
        "a PreBind rejection ends the attempt as `0/1 nodes are available: ...` with the "
        "plugin as rejector (v1.30: the plugin's message, no rejector, retried after backoff)",
    )
    pre_bind_rejection_raw: bool = _switch(
        "1.33",
        f"{SRC_133}: schedule_one.go bindingCycle (returns RunPreBindPlugins' status again; "
        "v1.36.2 keeps it)",
        "the v1.31-v1.32 FitError for a PreBind rejection is gone: the plugin's own message, "
        "no rejector, as in v1.30",
    )
    invalid_in_tree_volume_limits: bool = _switch(
        "1.31",
        f"{SRC_131}: apis/config/validation/validation.go invalidPluginsByVersion",
        "a v1 configuration naming AzureDiskLimits, CinderLimits, EBSLimits or GCEPDLimits in "
        "an extension point's enabled list or in pluginConfig is invalid",
    )
    sorted_pre_filter_plugins: bool = _switch(
        "1.31",
        f"{SRC_131}: framework/runtime/framework.go RunPreFilterPlugins (sets.List)",
        "`node(s) didn't satisfy plugin(s) [..] simultaneously` names the plugins sorted, not "
        "in the order they ran",
    )
    absent_nodes_status: bool = _switch(
        "1.32",
        f"{SRC_132}: schedule_one.go findNodesThatFitPod, framework/types.go FitError",
        "nodes left out by a PreFilterResult count as `node(s) didn't satisfy plugin(s) [..]`",
    )
    queueing_hints: bool = _switch(
        "1.32",
        f"{SRC_132}: backend/queue/scheduling_queue.go, plugins' EventsToRegister",
        "an unschedulable pod moves on a cluster change only if a rejecting plugin's hint says so",
    )
    extender_status_overwrite: bool = _switch(
        "1.32",
        f"{SRC_132}: schedule_one.go findNodesThatPassExtenders",
        "an extender's failure replaces a node's status instead of adding a reason",
    )
    too_long_value_omitted: bool = _switch(
        "1.32",
        f"{SRC_132}: apimachinery pkg/util/validation/field/errors.go TooLong (called by "
        "api/validation/objectmeta.go ValidateAnnotationsSize)",
        "field.TooLong says `Too long: may not be more than N bytes` (v1.30-1.31: `Too long: "
        "must have at most N bytes`)",
    )
    victims_sorted_after_reprieve: bool = _switch(
        "1.31",
        f"{SRC_131}: defaultpreemption/default_preemption.go SelectVictimsOnNode (#128307, "
        "also in v1.30.7)",
        "a node's victims are sorted most important first after the PDB-aware reprieve",
    )
    volume_binding_all_nodes: bool = _switch(
        "1.31",
        f"{SRC_131}: volumebinding/volume_binding.go PreFilter, binder.go without "
        "GetEligibleNodes (#125398, also in v1.30.7)",
        "VolumeBinding's PreFilter no longer narrows the nodes to a bound volume's hostname "
        "affinity: every node goes through its Filter",
    )
    portworx_migration_default_on: bool = _switch(
        "1.31",
        "k8s.io/kubernetes v1.31.8 (openshift-kni/scheduler-plugins@d732734a7): "
        "pkg/features/kube_features.go CSIMigrationPortworx (beta, on by default); "
        "nodevolumelimits/utils.go isCSIMigrationOn, volumebinding/binder.go "
        "isCSIMigrationOnForPlugin",
        "in-tree Portworx volumes count under pxd.portworx.com on nodes whose CSINode lists "
        "the plugin as migrated",
    )
    coscheduling_args_validation: bool = _switch(
        "1.32",
        "kubernetes-sigs/scheduler-plugins v0.32.7 (built on k8s.io/kubernetes v1.32.5): "
        "apis/config/validation ValidateCoschedulingArgs, called by Coscheduling's New",
        "Coscheduling refuses a negative permitWaitingTimeSeconds or podGroupBackoffSeconds "
        "with `must be greater than 0`",
    )
    sidecar_non_zero_requested: bool = _switch(
        "1.32",
        f"{SRC_132}: framework/types.go calculateResource",
        "NodeInfo.NonZeroRequested sums sidecars (restartable init containers)",
    )
    in_tree_volume_limits_default: bool = field(
        default=True,
        metadata={
            "release": "1.31",
            "source": f"{SRC_132}: apis/config/v1/default_plugins.go",
            "what": "EBSLimits, GCEPDLimits, AzureDiskLimits in the default profile (off: gone)",
        },
    )
    in_tree_volume_limits_registered: bool = field(
        default=True,
        metadata={
            "release": "1.32",
            "source": f"{SRC_132}: framework/plugins/registry.go",
            "what": "the in-tree volume-limit plugins exist (off: a config naming them fails)",
        },
    )
    storage_capacity_scoring_gate: bool = _switch(
        "1.33",
        f"{SRC_133}: apis/config/validation/validation_pluginargs.go ValidateVolumeBindingArgs",
        "VolumeBinding's `shape` error names the StorageCapacityScoring gate (was "
        "VolumeCapacityPriority); the gate stays off",
    )
    pv_affinity_message_v2: bool = _switch(
        "1.33",
        f"{SRC_133}: volumebinding/binder.go ErrReasonNodeConflict",
        "`node(s) didn't match PersistentVolume's node affinity`",
    )
    balanced_skip_best_effort: bool = _switch(
        "1.33",
        f"{SRC_133}: noderesources/balanced_allocation.go PreScore",
        "BalancedAllocation skips pods whose requests are all zero",
    )
    pod_affinity_node_hint_v2: bool = _switch(
        "1.33",
        f"{SRC_133}: interpodaffinity/plugin.go isSchedulableAfterNodeChange",
        "InterPodAffinity's node hint compares the topology keys of the old and new node",
    )
    csi_limits_hints_v2: bool = _switch(
        "1.33",
        f"{SRC_133}: nodevolumelimits/csi.go EventsToRegister, isSchedulableAfterPodDeleted",
        "NodeVolumeLimits hints CSINode updates and VolumeAttachment deletions",
    )
    nominated_pod_events: bool = _switch(
        "1.33",
        f"{SRC_133}: eventhandlers.go updatePodInSchedulingQueue (hasNominatedNodeNameChanged) "
        "and deletePodFromSchedulingQueue; noderesources/fit.go, nodeports/node_ports.go and "
        "nodevolumelimits/csi.go pod-delete hints",
        "a pending pod's nomination ending (changed, cleared, the pod deleted) is an "
        "AssignedPodDelete for pods of lower or equal priority",
    )
    in_place_resize_requests: bool = _switch(
        "1.33",
        "k8s.io/component-helpers v0.33.3 (same through v0.36.3): resource/helpers.go "
        f"AggregateContainerRequests, determineEffectiveRequests; {SRC_135}: framework/types.go "
        "CalculateResource (UseStatusResources with InPlacePodVerticalScaling, beta on in v1.33)",
        "a bound pod's container resizing counts max(spec, status resources, allocatedResources) "
        "(an Infeasible resize leaves the spec out)",
    )
    pop_from_backoff_q: bool = _switch(
        "1.33",
        f"{SRC_133}: backend/queue/active_queue.go, backoff_queue.go",
        "an empty activeQ pops the backoffQ head; backoff ends on whole-second windows",
    )
    unschedulable_count_backoff: bool = _switch(
        "1.34",
        f"{SRC_135}: backend/queue/backoff_queue.go getBackoffTime, scheduling_queue.go",
        "backoff doubles per unschedulable attempt, error attempts counted apart",
    )
    nodeports_sidecars: bool = _switch(
        "1.34",
        f"{SRC_135}: nodeports/node_ports.go, framework/types.go updateUsedPorts",
        "NodePorts counts the host ports of restartable init containers",
    )
    fit_unresolvable_over_allocatable: bool = _switch(
        "1.34",
        f"{SRC_134}: noderesources/fit.go fitsRequest (InsufficientResource.Unresolvable) "
        "and Filter",
        "a request larger than the node's whole allocatable makes NodeResourcesFit's status "
        "UnschedulableAndUnresolvable, so preemption leaves the node out",
    )
    validation_messages_v134: bool = _switch(
        "1.34",
        f"{SRC_134}: apis/config/validation/validation.go validateCommonQueueSort, "
        "validation_pluginargs.go validateFunctionShape",
        "`must be the same for all profiles` (was `queueSort must be ...`) and `values must be "
        "sorted in increasing order` (was `utilization values ...`)",
    )
    rwop_message_v2: bool = _switch(
        "1.34",
        f"{SRC_134}: volumerestrictions/volume_restrictions.go ErrReasonReadWriteOncePodConflict",
        "`node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode "
        "already in-use by another pod`",
    )
    dra_in_default_profile: bool = _switch(
        "1.34",
        f"{SRC_135}: apis/config/v1/default_plugins.go",
        "DynamicResources is in the default profile (skips pods without resource claims)",
    )
    pod_level_resources: bool = _switch(
        "1.34",
        f"{SRC_135}: component-helpers resource/helpers.go PodRequests, framework/types.go "
        "CalculateResource, apis/core/v1/defaults.go defaultPodRequests (same in component-helpers "
        "v0.36.3)",
        "a pod's spec.resources requests (cpu, memory, hugepages-*) replace its containers' sum",
    )
    volume_attributes_class: bool = _switch(
        "1.34",
        f"{SRC_134}: component-helpers storage/volume/pv_helpers.go FindMatchingVolume "
        "(vacEnabled), volumebinding/binder.go findMatchingVolumes, kube_features.go "
        "VolumeAttributesClass (GA, on); v1.36.2 pkg/api/persistentvolume(claim)/util.go "
        "DropDisabled(Spec)Fields, apis/core/validation/validation.go",
        "a PV or claim keeps spec.volumeAttributesClassName (v1.30-1.33 drop it), and a claim "
        "binds statically only to a PV of the same class (absent counts as \"\")",
    )
    binding_not_a_pod_delete: bool = _switch(
        "1.35",
        f"{SRC_135}: eventhandlers.go deletePodFromSchedulingQueue(pod, inBinding) "
        "(v1.33.3 and v1.34.7 handle a binding as any delete of an unscheduled pod)",
        "binding a pod that had a nominated node no longer moves lower- and equal-priority "
        "pods (the v1.33-v1.34 AssignedPodDelete of the nominated pod)",
    )
    dra_scoring: bool = _switch(
        "1.35",
        f"{SRC_135}: dynamicresources/dynamicresources.go Score and NormalizeScore, "
        "apis/config/v1/default_plugins.go applyDynamicResources (weight 2); v1.34.7's plugin "
        "has no Score point",
        "DynamicResources scores (0 for a pod without claims) with weight 2 in the default "
        "profile",
    )
    taint_message_v2: bool = _switch(
        "1.34",
        f"{SRC_134}: tainttoleration/taint_toleration.go Filter",
        "`node(s) had untolerated taint(s)`, without the taint",
    )
    gang_scheduling_registered: bool = _switch(
        "1.35",
        f"{SRC_135}: framework/plugins/registry.go, gangscheduling/gangscheduling.go",
        "GangScheduling is in the registry (not in the default profile: its gates are off)",
    )
    tie_break_heap: bool = _switch(
        "1.35",
        f"{SRC_135}: schedule_one.go nodeScoreHeap, prioritizeNodes",
        "SelectHost pops a max-heap of (score, randomizer); randomizers only for extender-scored "
        "nodes",
    )
    opportunistic_batching: bool = _switch(
        "1.35",
        f"{SRC_135}: framework/runtime/batch.go, plugins' SignPod",
        "a pod with the last pod's signature may take the next node of its scores unscored",
    )
    nominated_for_expectation: bool = _switch(
        "1.35",
        f"{SRC_135}: schedule_one.go bindingCycle (RunPreBindPreFlights, WillWaitOnPermit) and "
        "handleSchedulingFailure, volumebinding PreBindPreFlight, backend/queue/nominator.go "
        "UpdateNominatedPod, registry/core/pod/storage/storage.go setPodNodeAndMetadata",
        "the binding cycle writes the chosen node as the pod's nominatedNodeName when it waits "
        "at Permit or a PreBind plugin has work; a later failure's patch compares with the pod "
        "as popped, so a rejected pod keeps that nomination; binding clears a pod's "
        "nomination (ClearingNominatedNodeNameAfterBinding, beta on)",
    )
    placement_plugin_sets: bool = _switch(
        "1.36",
        "k8s.io/kube-scheduler v0.36.3: config/v1/types.go Plugins, framework/interface.go "
        "PlacementGeneratePlugin and PlacementScorePlugin",
        "profiles accept the placementGenerate and placementScore plugin sets (not run)",
    )
    image_volume_locality: bool = _switch(
        "1.36",
        "kubernetes/kubernetes#130231 (not in v1.35.7's image_locality.go; a v1.36 change per "
        "the research summary); sumImageScores' image-volume loop and Score's container-only "
        "threshold as quoted from master after v1.36.0 in kubernetes/kubernetes#138952",
        "ImageLocality sums the images of image volumes too (the threshold still counts "
        "containers only)",
    )
    in_place_pod_level_resize_requests: bool = _switch(
        "1.36",
        "k8s.io/component-helpers v0.36.3: resource/helpers.go PodRequests; "
        "InPlacePodLevelResourcesVerticalScaling beta on from v1.36 (kube_features.go of a "
        "1.37-development tree)",
        "a bound pod's pod-level requests follow its status.resources and allocatedResources "
        "the same way",
    )
    balanced_change_in_balance: bool = _switch(
        "1.36",
        "kubernetes/kubernetes master after PR #135573: noderesources/resource_allocation.go "
        "at 1175e166 (scorer(requested, allocated, allocatable)); balancedResourceScorer's two "
        "lines from the PR's review diff and a 2026-03 master excerpt (balanced_allocation.go "
        "204-218); checked against the post-merge balanced_allocation_test.go table",
        "BalancedAllocation scores the change in balance: 50 + (50 + with pod - without) / 2",
    )
    preempted_waiting_pods_backoff: bool = _switch(
        "1.36",
        "kubernetes/kubernetes#135719 (release note); k8s.io/kube-scheduler v0.36.3 "
        "framework/interface.go WaitingPod.Preempt; its Error status from a walk-through of "
        "the PR; WaitOnPermit's error wrapping read at v1.35.7",
        "a preemption victim waiting at Permit is preempted, not rejected: an error that "
        "sends it to backoffQ",
    )
    portworx_migration_ga: bool = _switch(
        "1.36",
        "k8s.io/kubernetes v1.36.2 (openshift/microshift): nodevolumelimits/utils.go "
        "isCSIMigrationOn",
        "the volume-limit plugins count in-tree Portworx volumes as migrated on any node with a "
        "CSINode, as the other in-tree plugins",
    )
    nominated_pod_hints_v2: bool = _switch(
        "1.36",
        "k8s.io/kubernetes v1.36.2 (openshift/microshift): interpodaffinity/plugin.go "
        "isSchedulableAfterPodChange (l.171-254), podtopologyspread/plugin.go "
        "involvedInTopologySpreading (l.186-194)",
        "InterPodAffinity's and PodTopologySpread's pod hints judge a pod that was only "
        "nominated as a bound one; InterPodAffinity's delete hint also queues a pod matching "
        "the deleted pod's required anti-affinity",
    )
    node_declared_features: bool = _switch(
        "1.36",
        f"{SRC_135}: default_plugins.go applyFeatureGates and the plugin (gate alpha, off, "
        "there); on by default from v1.36 per its release notes (#136042)",
        "NodeDeclaredFeatures is in the default profile (skips pods needing no node feature)",
    )
    fit_ratio_validation_v136: bool = _switch(
        "1.36",
        "k8s.io/kubernetes v1.36.2 (openshift/microshift, deps/github.com/openshift/kubernetes): "
        "pkg/scheduler/apis/config/validation/validation_pluginargs.go "
        "ValidateNodeResourcesFitArgs",
        "NodeResourcesFit args: scoringStrategy.requestedToCapacityRatio is required for type "
        "RequestedToCapacityRatio and forbidden for the others; shape errors sit at "
        "scoringStrategy.requestedToCapacityRatio.shape (was scoringStrategy.shape)",
    )

    failure_status_from_cache: bool = _switch(
        "1.36",
        "k8s.io/kubernetes v1.36.2 (openshift/microshift): schedule_one.go "
        "handleSchedulingFailure (its status patch reads the pod refreshed from the informer)",
        "a failure's patch clears a nomination the binding cycle wrote, which ends it for "
        "lower- and equal-priority pods",
    )

    @property
    def pre_bind_fit_error(self) -> bool:
        """v1.31-v1.32: a PreBind rejection is a FitError over the chosen node."""
        return self.pre_bind_rejection_fit_error and not self.pre_bind_rejection_raw

    def changed(self) -> list[str]:
        """The switches that differ from v1.30.6, in declaration order."""
        return [
            f.name
            for f in field_specs(Features)
            if "release" in f.metadata and getattr(self, f.name) != f.default
        ]


def describe(name: str) -> dict[str, str]:
    """The release, source and meaning recorded for switch ``name``."""
    meta = next(f.metadata for f in field_specs(Features) if f.name == name)
    return {"release": meta["release"], "source": meta["source"], "what": meta["what"]}


def switch_names() -> list[str]:
    return [f.name for f in field_specs(Features) if "release" in f.metadata]


V130 = Features()


def features_of(handle: Any) -> Features:
    """The handle's release switches; v1.30.6 for plugins built without a handle (tests)."""
    found = getattr(handle, "features", None)
    return found if isinstance(found, Features) else V130
