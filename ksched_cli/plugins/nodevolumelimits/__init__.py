"""Volume attach limits: NodeVolumeLimits (CSI) and the in-tree EBS, GCE PD, Azure Disk
and Cinder limits."""
