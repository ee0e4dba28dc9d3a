package catalyst

// envelope decodes {"events"|"history": [...]} with the run metadata next to
// it: Dapr's GetInstanceHistory response, or Catalyst's run-with-history.
func (d *decoder) envelope(sn sniffed) (*History, error) {
	d.format = sn.elem.format()
	d.fromCLI(sn.elem == elemCLI)
	sc := d.sc
	if err := sc.BeginObject(); err != nil {
		return nil, d.fail(err)
	}
	var sawEvents bool
	var seen uint32
	for {
		key, more, err := sc.NextKey()
		if err != nil {
			return nil, d.fail(err)
		}
		if !more {
			break
		}
		switch string(key) {
		case "events", "history":
			if sawEvents {
				return nil, d.errorf("the document has two event lists (\"events\" and \"history\", or one of them twice)")
			}
			sawEvents = true
			err = d.events(sn.elem)
		default:
			err = d.runField(key, &seen)
		}
		if err != nil {
			return nil, err
		}
	}
	return d.finish(sn.elem == elemFlat), nil
}

// events decodes a list of events (null is an empty list).
func (d *decoder) events(elem elemFormat) error {
	sc := d.sc
	if null, err := d.isNull(); null || err != nil {
		return err
	}
	if err := sc.BeginArray(); err != nil {
		return d.kindError("events", "a list of events")
	}
	// A long list in a file is decoded on two cores (decode_split.go).
	sp := d.startSplit(elem)
	defer func() { sp.stop() }()
	for {
		more, err := sc.NextElement()
		if err != nil {
			return d.fail(err)
		}
		if !more {
			break
		}
		if sp != nil {
			// Here the first decoder takes over the second's events, or
			// learns that it has passed the second's start, or that the
			// second gave up.
			off := sc.Offset()
			switch st := sp.startAt(off); {
			case off == st:
				err := d.join(sp)
				d.event = -1
				return err
			case st >= 0 && off > st, st < 0 && off >= sp.from:
				sp.stop()
				sp = nil
			}
		}
		e, err := d.nextEvent()
		if err != nil {
			return err
		}
		if err := d.decodeEvent(elem, e); err != nil {
			return err
		}
		d.noteEvent(e)
	}
	d.event = -1
	return nil
}

// Run metadata fields; every spelling of one field has one number.
const (
	rfUnknown = iota
	rfID
	rfWorkflow
	rfStatus
	rfCreated
	rfUpdated
	rfApp
	rfProject
	rfProjectUID
	rfExecution
	rfParent
	rfFailure
	rfLevel
	rfInput
	rfOutput
	rfCustomStatus
)

// runFieldOf names the run metadata field a key holds, in Dapr's camelCase
// or Catalyst's snake_case.
func runFieldOf(key []byte) int {
	switch string(key) {
	case "instanceID", "instanceId", "instance_id", "run_id", "runId":
		return rfID
	case "workflowName", "workflow_name":
		return rfWorkflow
	case "runtimeStatus", "runtime_status", "status":
		return rfStatus
	case "createdAt", "created_at":
		return rfCreated
	case "lastUpdatedAt", "last_updated_at", "updatedAt", "updated_at":
		return rfUpdated
	case "appId", "appID", "app_id":
		return rfApp
	case "projectId", "project_id", "project":
		return rfProject
	case "projectUid", "project_uid":
		return rfProjectUID
	case "executionId", "execution_id":
		return rfExecution
	case "parentInstanceId", "parent_instance_id":
		return rfParent
	case "failureMessage", "failure_message":
		return rfFailure
	case "data_sharing_level", "dataSharingLevel":
		return rfLevel
	case "input":
		return rfInput
	case "output", "result":
		return rfOutput
	case "customStatus", "custom_status":
		return rfCustomStatus
	}
	return rfUnknown
}

// runField decodes one key of run metadata next to the events; any other
// key is skipped and counted. seen holds a bit per field already given.
func (d *decoder) runField(key []byte, seen *uint32) error {
	f := runFieldOf(key)
	if f == rfUnknown {
		return d.skipUnknown()
	}
	if *seen&(1<<f) != 0 {
		return d.duplicate(key)
	}
	*seen |= 1 << f
	run := &d.h.Run
	var err error
	var s string
	switch f {
	case rfID:
		run.ID, err = d.internOf("instance_id")
	case rfWorkflow:
		run.Workflow, err = d.internOf("workflow_name")
	case rfStatus:
		s, err = d.internOf("runtime_status")
		d.run.status = Status(s)
	case rfCreated:
		d.run.createdRep, err = d.timeOf("created_at")
	case rfUpdated:
		d.run.updatedRep, err = d.timeOf("last_updated_at")
	case rfApp:
		run.AppID, err = d.internOf("app_id")
	case rfProject:
		run.Project.Name, err = d.internOf("project_id")
	case rfProjectUID:
		run.Project.UID, err = d.internOf("project_uid")
	case rfExecution:
		run.ExecutionID, err = d.internOf("execution_id")
	case rfParent:
		run.ParentID, err = d.internOf("parent_instance_id")
	case rfFailure:
		run.FailureMessage, err = d.stringOf("failure_message")
	case rfLevel:
		s, err = d.internOf("data_sharing_level")
		d.run.level, d.run.levelSet = Level(s), true
	case rfInput:
		run.Input, err = d.anyPayloadOf()
	case rfOutput:
		run.Output, err = d.anyPayloadOf()
	case rfCustomStatus:
		run.CustomStatus, err = d.anyPayloadOf()
	}
	return err
}
