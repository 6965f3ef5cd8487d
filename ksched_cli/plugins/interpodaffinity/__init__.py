"""InterPodAffinity: required and preferred pod (anti-)affinity (plugins/interpodaffinity)."""
