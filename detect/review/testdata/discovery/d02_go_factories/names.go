// Activities built by factories (closures over their dependencies),
// registered under constant names, one by one and from a map.
package saga

const (
	actReserve = "saga.reserve.v1"
	actCharge  = "saga.charge.v1"
	actRefund  = "saga.refund.v1"
	wfOrder    = "saga.order.v1"
	actAudit   = "saga.audit.v1"
)
