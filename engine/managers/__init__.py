"""The control plane: Scheduler, TpModelWorker, ScheduleBatch -> ModelWorkerBatch (SGLang's managers/)."""
