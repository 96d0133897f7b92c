"""Line dialects: peel wrappers and headers off a raw line and say who wrote it."""
