"""Let'Em Ride pay tables shipped as data (TOML)."""
