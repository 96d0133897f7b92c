"""EAGLE speculation: EAGLEWorker (v1), EAGLEWorkerV2 (overlap), spec_info, trees and draft graphs."""
