package saga

import "github.com/dapr/durabletask-go/workflow"

func Register(r *workflow.Registry, s Store) error {
	if err := r.AddWorkflowN(wfOrder, NewOrderWorkflow(3)); err != nil {
		return err
	}
	if err := r.AddActivityN(actReserve, NewReserveActivity(s)); err != nil {
		return err
	}
	audit := newAudit(s)
	if err := r.AddActivityN("saga.audit.v0", audit); err != nil {
		return err
	}
	more := map[string]workflow.Activity{
		actCharge: newCharge(s),
		actRefund: newRefund(s),
		actAudit:  newAudit(s),
	}
	for name, act := range more {
		if err := r.AddActivityN(name, act); err != nil {
			return err
		}
	}
	return nil
}
