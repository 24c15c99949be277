// The one module the worker bundles: every workflow type Atelier registers is exported here.
export { runWorkflow, cancelRunSignal, runStateQuery, finalizeRunUpdate } from './run-workflow.js';
export { orderWorkflow, cancelOrderSignal, wakeOrderSignal } from './order-workflow.js';
export { reconcileWorkflow } from './reconcile-workflow.js';
export { webhookDeliveryWorkflow } from './webhook-delivery-workflow.js';
