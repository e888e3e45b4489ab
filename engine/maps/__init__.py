"""Map geometry: hex grids and area maps, pure."""
