package runview

import (
	tea "charm.land/bubbletea/v2"

	"github.com/twice-cli/twice/catalyst"
	"github.com/twice-cli/twice/detect"
)

// Child workflows: enter on a child-workflow invocation, one of its
// attempts, or one of its events asks the root to open the child's run
// (OpenChildMsg); the root reads it from the source, or, when the parent
// was read from a file, says it is not in the file.

// childOfAttempt returns the run attempt att of invocation inv started (att
// < 0: the last attempt with an instance id), nil when the invocation is
// not a child workflow or the history does not name the child's instance.
func (d *viewData) childOfAttempt(inv, att int) *catalyst.Run {
	if d.idx == nil || inv < 0 || inv >= len(d.idx.Report.Invocations) {
		return nil
	}
	x := &d.idx.Report.Invocations[inv]
	if x.Kind != detect.KindChildWorkflow {
		return nil
	}
	if att < 0 {
		for i := len(x.Attempts) - 1; i >= 0; i-- {
			if x.Attempts[i].InstanceID != "" {
				att = i
				break
			}
		}
	}
	if att < 0 || att >= len(x.Attempts) || x.Attempts[att].InstanceID == "" {
		return nil
	}
	a := &x.Attempts[att]
	return d.childRun(a.InstanceID, x.Name, a.Scheduled)
}

// childOfEvent returns the child run event ev started or ended, nil when
// it is not a child workflow's event whose instance the history names.
func (d *viewData) childOfEvent(ev int) *catalyst.Run {
	if d.h == nil || ev < 0 || ev >= d.h.Len() {
		return nil
	}
	switch e := d.h.At(ev); e.Type {
	case catalyst.EventChildWorkflowCreated:
		if e.InstanceID != "" {
			return d.childRun(e.InstanceID, e.Name, ev)
		}
	case catalyst.EventChildWorkflowCompleted, catalyst.EventChildWorkflowFailed:
		if inv, att := d.idx.invocationOf(ev); inv >= 0 {
			return d.childOfAttempt(inv, att)
		}
	}
	return nil
}

// childRun names a child run: its instance id, the workflow, the app its
// start was routed to (else the parent's), the parent's project.
func (d *viewData) childRun(id, workflow string, created int) *catalyst.Run {
	parent := &d.h.Run
	run := &catalyst.Run{ID: id, Workflow: workflow, AppID: parent.AppID, Project: parent.Project,
		ParentID: parent.ID, Provenance: parent.Provenance}
	if created >= 0 && created < d.h.Len() {
		if r := d.h.At(created).Router; r != nil && r.Target != "" {
			run.AppID = r.Target
		}
	}
	return run
}

// openChild asks the root to open run (nil: nothing to open).
func (d *viewData) openChild(run *catalyst.Run) tea.Cmd {
	if run == nil {
		return nil
	}
	msg := OpenChildMsg{Run: *run, Parent: d.h.Run}
	return func() tea.Msg { return msg }
}

func (d *viewData) openChildOfAttempt(inv, att int) tea.Cmd {
	return d.openChild(d.childOfAttempt(inv, att))
}

func (d *viewData) openChildOfEvent(ev int) tea.Cmd { return d.openChild(d.childOfEvent(ev)) }
