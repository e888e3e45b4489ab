"""Running Herald as an operator sees it: metrics, the health check, and the locks between processes."""
