"""ActionType bits and resources of cluster events (framework/types.go); an update of a
node carries one bit per changed scheduling property."""

ADD = 1
DELETE = 1 << 1
UPDATE_NODE_ALLOCATABLE = 1 << 2
UPDATE_NODE_LABEL = 1 << 3
UPDATE_NODE_TAINT = 1 << 4
UPDATE_NODE_CONDITION = 1 << 5
UPDATE_NODE_ANNOTATION = 1 << 6
ALL = (1 << 7) - 1
UPDATE = (
    UPDATE_NODE_ALLOCATABLE | UPDATE_NODE_LABEL | UPDATE_NODE_TAINT | UPDATE_NODE_CONDITION
    | UPDATE_NODE_ANNOTATION
)

# EventResource names of the storage objects.
PVC, PV, STORAGE_CLASS, CSI_NODE = "PVC", "PV", "StorageClass", "CSINode"
CSI_DRIVER, CSI_CAPACITY, VOLUME_ATTACHMENT = "CSIDriver", "CSIStorageCapacity", "VolumeAttachment"
