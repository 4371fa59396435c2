"""Data files: one versioned TOML spec per simulated peripheral (see firmware_bridge.sim.spec)."""
