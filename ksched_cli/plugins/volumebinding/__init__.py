"""VolumeBinding: the plugin, the volume binder and its assume caches."""
