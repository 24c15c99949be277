// The one module the worker bundles: every workflow type Atelier registers is exported here.
export { runWorkflow, cancelRunSignal, runStateQuery, finalizeRunUpdate } from './run-workflow';
export { orderWorkflow, cancelOrderSignal, wakeOrderSignal } from './order-workflow';
export { reconcileWorkflow } from './reconcile-workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery-workflow';
