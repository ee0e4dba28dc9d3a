package review

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/twice-cli/twice/detect"
)

func maxSev(a, b detect.Severity) detect.Severity {
	if a > b {
		return a
	}
	return b
}

// analyze resolves registrations, reviews every activity body and every
// orchestrator's call sites, and fills rep. It stops with ctx's error when
// ctx ends (ctrl+c), looking at it for each activity and each file.
func analyze(ctx context.Context, rep *Report, files []*File) error {
	ix := newIndex(files)
	type regFn struct {
		reg Registration
		fn  *Func
	}
	var acts, wfs []regFn
	// Registrations made by a call come first: a class the SDK registers
	// by its type is listed where the code registers it, if it does.
	var regs []Registration
	for _, implicit := range []bool{false, true} {
		for _, f := range files {
			for _, r := range f.Registrations {
				if r.Implicit == implicit {
					regs = append(regs, r)
				}
			}
		}
	}
	regs = expandHelpers(ix, regs, files)
	for _, r := range regs {
		fn := ix.resolveRegistration(r)
		if r.NameRef != nil {
			if v, ok := ix.constant(r.File, r.NameRef, 0); ok {
				r.Name = v
			} else if v, ok := ix.computedName(r); ok {
				r.Name = v
			} else if fn != nil && r.Name == "" {
				r.Name = fn.Short
			}
		}
		if r.Name == "" && fn != nil {
			r.Name = fn.Short
		}
		if r.Name == "" {
			r.Name = r.Func
		}
		switch r.Kind {
		case KindActivity:
			acts = append(acts, regFn{r, fn})
			if fn != nil {
				if _, dup := ix.registered[fn]; !dup {
					ix.registered[fn] = r.Name
				}
			}
		case KindWorkflow:
			wfs = append(wfs, regFn{r, fn})
			if fn != nil {
				if _, dup := ix.workflows[fn]; !dup {
					ix.workflows[fn] = r.Name
				}
			}
		}
		if fn == nil {
			reason := r.Unresolved
			if reason == "" {
				reason = ReasonNotInTree
				if r.Func == "" && r.Factory != "" {
					reason = ReasonFactory
				}
			}
			rep.Unresolved = append(rep.Unresolved, Unresolved{Name: r.Name, Kind: r.Kind, Reason: reason,
				Location: Location{File: r.File.Path, Line: r.Pos.Line, Col: r.Pos.Col}})
		}
	}
	inferredActs, inferredWfs := infer(rep, ix, files)
	for _, fn := range inferredActs {
		r := Registration{Name: ix.registered[fn], Kind: KindActivity, Func: fn.Name, Pos: fn.Pos, File: fn.File}
		acts = append(acts, regFn{r, fn})
	}
	for _, fn := range inferredWfs {
		r := Registration{Name: ix.workflows[fn], Kind: KindWorkflow, Func: fn.Name, Pos: fn.Pos, File: fn.File}
		wfs = append(wfs, regFn{r, fn})
	}
	inferred := map[*Func]bool{}
	for _, fn := range inferredActs {
		inferred[fn] = true
	}
	for _, fn := range inferredWfs {
		inferred[fn] = true
	}
	rep.SDKImported = importsSDK(files)
	walkers := map[string][]*walker{}
	seen := map[string]bool{}
	// bodyFile is each activity's body's file (its Location may be the
	// registered class when the body is a base class's method).
	var bodyFile []string
	for _, a := range acts {
		key := a.reg.Name
		if a.fn != nil {
			key += "@" + a.fn.File.Path + ":" + a.fn.Name
		}
		if seen[key] {
			continue // registered twice (two workers): one review
		}
		seen[key] = true
		act := Activity{Name: a.reg.Name, Lang: a.reg.File.Lang,
			Registered: Location{File: a.reg.File.Path, Line: a.reg.Pos.Line, Col: a.reg.Pos.Col}}
		if inferred[a.fn] {
			act.Discovered, act.Registered = DiscoveredInferred, Location{}
		}
		rep.Activities = append(rep.Activities, act)
		ap := &rep.Activities[len(rep.Activities)-1]
		bodyFile = append(bodyFile, "")
		if a.fn == nil {
			ap.Unresolved = true
			ap.Func = a.reg.Func
			continue
		}
		ap.Func, ap.Location = a.fn.Name, Location{File: a.fn.File.Path, Line: a.fn.Pos.Line, Col: a.fn.Pos.Col}
		bodyFile[len(bodyFile)-1] = a.fn.File.Path
		// A template-method base activity: the registered class is where
		// the activity is defined, its body a base class's method.
		if i := strings.LastIndexByte(a.reg.Func, '.'); i > 0 && a.reg.Inline == nil && a.fn.Recv != "" && simpleName(a.reg.Func[:i]) != a.fn.Recv {
			if loc, ok := ix.typeLocation(a.reg.File, a.reg.Func[:i]); ok {
				ap.Location = loc
			}
		}
	}
	fnOf := map[string]*Func{}
	// selfOf is the registered class when its body is a base class's
	// method (a template-method base activity): this.M() calls go to it.
	selfOf := map[string]string{}
	for _, a := range acts {
		if a.fn != nil {
			if k := a.reg.Name + "@" + a.fn.File.Path + ":" + a.fn.Name; fnOf[k] == nil {
				fnOf[k] = a.fn
				if i := strings.LastIndexByte(a.reg.Func, '.'); i > 0 && a.reg.Inline == nil && a.fn.Recv != "" && simpleName(a.reg.Func[:i]) != a.fn.Recv {
					selfOf[k] = a.reg.Func[:i]
				}
			}
		}
	}
	// Walk after the slice stops growing (walkers keep pointers into it).
	for i := range rep.Activities {
		if err := ctx.Err(); err != nil {
			return err
		}
		ap := &rep.Activities[i]
		if ap.Unresolved {
			continue
		}
		k := ap.Name + "@" + bodyFile[i] + ":" + ap.Func
		fn := fnOf[k]
		w := &walker{ix: ix, act: ap, root: fn, self: selfOf[k], seen: map[string]bool{}, stack: map[*Func]bool{}, opaque: map[string]bool{}}
		f := &frame{fn: fn, file: fn.File, taint: map[string]*source{}, values: map[string]*Expr{}, counted: map[string]*op{}, ctx: ctxParam(fn)}
		w.walkFunc(fn, f)
		w.finish(f)
		walkers[string(ap.Lang)+":"+ap.Name] = append(walkers[string(ap.Lang)+":"+ap.Name], w)
	}
	for _, wf := range wfs {
		w := Workflow{Name: wf.reg.Name, Lang: wf.reg.File.Lang}
		if inferred[wf.fn] {
			w.Discovered = DiscoveredInferred
		}
		if wf.fn != nil {
			w.Func, w.Location = wf.fn.Name, Location{File: wf.fn.File.Path, Line: wf.fn.Pos.Line, Col: wf.fn.Pos.Col}
		}
		if !containsWorkflow(rep.Workflows, w) {
			rep.Workflows = append(rep.Workflows, w)
		}
	}
	if err := orchestrators(ctx, rep, ix, files, walkers); err != nil {
		return err
	}
	for i := range rep.Activities {
		rep.Hazards = append(rep.Hazards, rep.Activities[i].Hazards...)
	}
	rep.Hazards = dedupeHazards(rep.Hazards)
	rep.rowsUsed = ix.rowsUsed
	sortReport(rep)
	return nil
}

func containsWorkflow(ws []Workflow, w Workflow) bool {
	for _, x := range ws {
		if x.Name == w.Name && x.Location == w.Location {
			return true
		}
	}
	return false
}

// dedupeHazards drops a hazard listed under several activities (a shared
// retry policy) but once.
func dedupeHazards(hs []Hazard) []Hazard {
	seen := map[string]bool{}
	out := hs[:0]
	for _, h := range hs {
		k := fmt.Sprintf("%s@%s:%d:%d/%s", h.Rule, h.File, h.Line, h.Col, h.Activity)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	return out
}

// site is a call site resolved to its target's registered name.
type site struct {
	CallSite
	file   *File
	target string // registered name
	caller string // the calling workflow's registered name (or function)
}

// orchestrators applies the call-site rules: retried-rejection,
// shared-retry-policy, and per-attempt-key through a retried child
// workflow's instance id.
func orchestrators(ctx context.Context, rep *Report, ix *index, files []*File, byName map[string][]*walker) error {
	// walkerOf is the reviewed activity a call site calls: of the ones
	// registered under its name, the one defined nearest the call (sample
	// projects in one repository share activity names).
	walkerOf := func(s site) *walker {
		var best *walker
		bestN := -1
		for _, w := range byName[string(s.file.Lang)+":"+s.target] {
			if n := sharedDirs(w.act.File, s.file.Path); n > bestN {
				best, bestN = w, n
			}
		}
		return best
	}
	var sites []site
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, cs := range f.CallSites {
			s := site{CallSite: cs, file: f}
			s.target = cs.Target
			if !cs.ByName {
				if fn := ix.resolve(f, cs.Target); fn != nil {
					if n, ok := ix.registered[fn]; ok && !cs.Child {
						s.target = n
					} else if n, ok := ix.workflows[fn]; ok && cs.Child {
						s.target = n
					} else {
						s.target = fn.Short
					}
				} else if v := ix.pkgOf(f).global(cs.Target); v != nil && v.Kind == ExprString && v.Str != "" {
					// ctx.CallActivity(activityCancelOrder, …) with a
					// package constant holding the registered name.
					s.target = v.Str
				} else if i := strings.LastIndexAny(cs.Target, "./"); i >= 0 {
					s.target = cs.Target[i+1:]
				}
			}
			s.caller = cs.Caller.Name
			if n, ok := ix.workflows[cs.Caller]; ok {
				s.caller = n
			}
			sites = append(sites, s)
		}
	}
	addTo := func(name string, h Hazard) {
		for i := range rep.Activities {
			a := &rep.Activities[i]
			if a.Name == name && (a.Lang == "" || strings.HasSuffix(h.File, a.Lang.Ext())) {
				a.Hazards = append(a.Hazards, h)
				return
			}
		}
	}
	// addAt lists a call site's hazard under the activity it calls.
	addAt := func(s site, h Hazard) {
		if w := walkerOf(s); w != nil {
			w.act.Hazards = append(w.act.Hazards, h)
			return
		}
		addTo(s.target, h)
	}
	mk := func(s site, rule RuleID, act, msg string) Hazard {
		r, _ := RuleByID(rule)
		return Hazard{Rule: rule, Severity: r.Severity, Activity: act, Workflow: s.caller,
			Location: Location{File: s.file.Path, Line: s.Pos.Line, Col: s.Pos.Col},
			Excerpt:  LineText(s.file.Src, s.Pos.Line), Message: msg}
	}
	// retried-rejection.
	for _, s := range sites {
		if s.Child || s.Policy == nil || s.PolicyHasPredicate {
			continue
		}
		w := walkerOf(s)
		if w == nil {
			continue
		}
		if len(w.rejections) == 0 {
			if w.statusRaise != nil {
				// raise_for_status(): every 4xx is raised, retried as a 5xx.
				h := mk(s, RuleRetriedRejection, s.target, fmt.Sprintf("%s calls %s (%s:%d), which raises a permanent 4xx (a declined, invalid or not-found request) as it raises a transient 5xx, and this call retries it with %s: return a 4xx as a value and raise only what a retry can fix",
					s.target, w.statusCall, w.statusRaise.File, w.statusRaise.Line, Clip(s.PolicyID)))
				h.Severity = detect.SeverityLow
				addAt(s, h)
			}
			continue
		}
		rl := w.rejections[0]
		msg := fmt.Sprintf("%s raises %s (%s:%d), and this call retries it with %s", s.target, w.rejectText[0], rl.File, rl.Line, Clip(s.PolicyID))
		switch {
		case s.file.Lang == LangPython:
			msg += "; dapr-ext-workflow's RetryPolicy has no error predicate (first_retry_interval, max_number_of_attempts, backoff_coefficient, max_retry_interval, retry_timeout), so the rejection must come back as a value"
		case s.file.Lang == LangCSharp:
			msg += "; Dapr.Workflow's WorkflowRetryPolicy has no error predicate (maxNumberOfAttempts, firstRetryInterval, backoffCoefficient, maxRetryInterval, retryTimeout), so the rejection must come back as a value"
		case !s.PredicateSupported:
			msg += "; the Dapr Go SDK's workflow.RetryPolicy has no error predicate, so the rejection must come back as a value"
		default:
			msg += "; the policy sets no Handle predicate to stop retrying it"
		}
		addAt(s, mk(s, RuleRetriedRejection, s.target, msg))
	}
	// shared-retry-policy: one policy value for activities of different
	// failure classes in one orchestrator.
	type group struct {
		sites []site
		// fileWide: the policy is a file-level value; when several
		// functions pass it, the hazard is at the calls of the activities
		// that reject permanently (each needs a policy of its own), not at
		// every call of the file.
		fileWide bool
	}
	groups := map[string]*group{}
	var keys []string
	for _, s := range sites {
		if s.Child || s.Policy == nil || s.PolicyID == "" {
			continue
		}
		// A policy held by a module- or package-level name (or an alias of
		// one) is one value for every function of the file that passes it:
		// the workflow and the helpers it yields from alike.
		id, scope := s.PolicyID, s.Caller.Name
		g0, fileWide := sharedPolicy(s.file, id)
		if fileWide {
			id, scope = g0, ""
		}
		k := s.file.Path + "\x00" + scope + "\x00" + id
		g := groups[k]
		if g == nil {
			g = &group{fileWide: fileWide}
			groups[k] = g
			keys = append(keys, k)
		}
		g.sites = append(g.sites, s)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		classes := map[string][]string{}
		var order []string
		for _, s := range g.sites {
			c := failureClass(s.target, walkerOf(s))
			if !contains(classes[c], s.target) {
				if len(classes[c]) == 0 {
					order = append(order, c)
				}
				classes[c] = append(classes[c], s.target)
			}
		}
		// A hazard when a permanent failure shares the schedule of another
		// class: reads, writes and steps that never fail all fail only
		// transiently, and one policy suits them.
		if len(classes) < 2 || len(classes["can reject permanently"]) == 0 {
			continue
		}
		var parts []string
		for _, c := range order {
			parts = append(parts, strings.Join(classes[c], ", ")+" ("+c+")")
		}
		// One hazard at every call that uses the shared value: each is a
		// place the policy must change.
		spread := false
		for _, s := range g.sites {
			spread = spread || s.Caller != g.sites[0].Caller
		}
		for _, s := range g.sites {
			if g.fileWide && spread && !contains(classes["can reject permanently"], s.target) {
				continue
			}
			addAt(s, mk(s, RuleSharedRetryPolicy, s.target, fmt.Sprintf("%s is the retry policy of %s: one schedule for different failure classes",
				Clip(s.PolicyID), strings.Join(parts, "; "))))
		}
	}
	// per-attempt-key through a retried child workflow's instance id.
	retriedChildren := map[*Func]site{}
	for _, s := range sites {
		if !s.Child || s.Policy == nil {
			continue
		}
		if fn := ix.resolve(s.file, s.Target); fn != nil && !s.ByName {
			retriedChildren[fn] = s
		} else {
			for fn, n := range ix.workflows {
				if n == s.target {
					retriedChildren[fn] = s
				}
			}
		}
	}
	for child, parent := range retriedChildren {
		ctxName := ctxParam(child)
		tainted := instanceIDVars(ix, child, ctxName)
		for _, s := range sites {
			if s.Caller != child || s.Child || s.Input == nil {
				continue
			}
			if usesInstanceID(ix, s.Input, ctxName, tainted) {
				addAt(s, mk(s, RulePerAttemptKey, s.target, fmt.Sprintf(
					"%s passes its own instance id to %s; it is called as a child workflow with a retry policy (%s:%d), and a retried child is a new instance with a new id",
					s.caller, s.target, parent.file.Path, parent.Pos.Line)))
			}
			if w := walkerOf(s); w != nil {
				for _, h := range w.wfIDKeys {
					r, _ := RuleByID(RulePerAttemptKey)
					h.Severity = r.Severity
					h.Message += fmt.Sprintf("; %s calls it, and is itself called as a child workflow with a retry policy (%s:%d): a retried child is a new instance with a new id", s.caller, parent.file.Path, parent.Pos.Line)
					addAt(s, h)
				}
			}
		}
	}
	return nil
}

// sharedPolicy resolves a policy name to the file-level variable that
// holds it, through aliases (RETRY = BASE_RETRY); ok is false for a name
// the file does not assign at its top level.
func sharedPolicy(f *File, id string) (string, bool) {
	found := false
	for depth := 0; depth < 4; depth++ {
		var v *Expr
		for _, g := range f.Globals {
			for i, l := range g.Lhs {
				if l.Kind == ExprIdent && l.Name == id && i < len(g.Rhs) {
					v = g.Rhs[i]
				}
			}
		}
		if v == nil {
			return id, found
		}
		found = true
		if v.Kind != ExprIdent {
			return id, true
		}
		id = v.Name
	}
	return id, found
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// failureClass is how an activity fails, for shared-retry-policy: it
// raises a permanent rejection, or its name says what it does.
func failureClass(name string, w *walker) string {
	if w != nil && (len(w.rejections) > 0 || w.statusRaise != nil) {
		return "can reject permanently"
	}
	if w != nil {
		if c := w.failureClass(); c != "" {
			return c
		}
	}
	switch detect.ClassifyActivity(name) {
	case detect.ClassReadOnly:
		return "read-only"
	case detect.ClassIdempotent:
		return "idempotent"
	}
	return "transient failures only"
}

// instanceIDVars returns the variables a workflow assigns from its own
// instance id.
func instanceIDVars(ix *index, fn *Func, ctxName string) map[string]bool {
	out := map[string]bool{}
	Walk(fn.Body, func(s *Stmt) bool {
		if s.Kind != StmtAssign {
			return true
		}
		for i, l := range s.Lhs {
			if l.Kind != ExprIdent {
				continue
			}
			var r *Expr
			if i < len(s.Rhs) {
				r = s.Rhs[i]
			} else if len(s.Rhs) == 1 {
				r = s.Rhs[0]
			}
			if usesInstanceID(ix, r, ctxName, out) {
				out[l.Name] = true
			}
		}
		return true
	})
	return out
}

// usesInstanceID reports whether an expression derives from the
// workflow's own instance id (ctx.instance_id, ctx.ID(), ctx.InstanceID()).
func usesInstanceID(ix *index, e *Expr, ctxName string, vars map[string]bool) bool {
	found := false
	e.Exprs(func(x *Expr) bool {
		switch x.Kind {
		case ExprIdent:
			if vars[x.Name] {
				found = true
			}
		case ExprAttr:
			if x.X != nil && x.X.Kind == ExprIdent && x.X.Name == ctxName {
				if r := is(qInstance, x, ""); r != nil {
					found = true
					ix.rowsUsed[r] = true
				}
			}
		}
		return !found
	})
	return found
}

// sharedDirs counts the leading folders two slash paths share.
// It is called for every call site against every activity of the name
// the site calls, so it allocates nothing.
func sharedDirs(a, b string) int {
	n := 0
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}
