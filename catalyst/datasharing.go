package catalyst

import (
	"strings"

	"github.com/twice-cli/twice/catalyst/safetext"
)

// The data-sharing level decides whether a payload a history leaves out
// was withheld or never given. This file is where that is decided, for
// every source:
//
//   - A decoder records only what the document reports
//     (Run.DataSharing): whether it came from Catalyst, whose filter
//     applies, and the level it names, if any. It marks no payload.
//   - ResolveDataSharing decides the level from what the document
//     reports, what a saved file recorded, what the user configured and
//     what the payloads show, in the order README states ("What twice
//     assumes about Catalyst").
//   - A source (the live client, the file loader) makes one call,
//     SettleDataSharing, once it knows what it adds; that resolves the
//     level and marks the absent payloads, in one pass over the events
//     where the level withholds.

// Level is an organization's data-sharing level: what Catalyst's MCP server
// lets through. Catalyst has two, metadata (the default) and full; any other
// value a source reports is kept verbatim.
type Level string

// Known data-sharing levels.
const (
	LevelUnknown  Level = ""
	LevelMetadata Level = "metadata"
	LevelFull     Level = "full"
)

// ParseLevel reads a data-sharing level a person gave (a flag, a config
// value): its case and surrounding spaces do not matter, and a blank one is
// LevelUnknown. ok is false for anything but metadata, full or blank.
func ParseLevel(s string) (level Level, ok bool) {
	switch l := Level(strings.ToLower(strings.TrimSpace(s))); l {
	case LevelUnknown, LevelMetadata, LevelFull:
		return l, true
	}
	return LevelUnknown, false
}

// DataSharing is what is known about the data-sharing level that applied to
// a history.
type DataSharing struct {
	// Filtered is true when a data-sharing filter applies to the source
	// (Catalyst, and files recorded from it). Only then does an absent
	// payload mean withheld.
	Filtered bool
	// Level is the level, or LevelUnknown when the source did not report it.
	Level Level
	// Inferred is true when twice inferred the level (payloads were
	// missing) rather than being told it.
	Inferred bool
}

// Withholds reports whether absent payloads are withheld: a filter applies
// and the level is not full.
func (d DataSharing) Withholds() bool {
	return d.Filtered && !strings.EqualFold(string(d.Level), string(LevelFull))
}

// LevelText describes the level for people: "metadata", "metadata
// (inferred: payloads are missing)", "full (inferred: payloads are
// present)", or "not reported (Catalyst's default is metadata)".
func (d DataSharing) LevelText() string {
	switch {
	case !d.Filtered && d.Level == LevelUnknown:
		return "none (no data-sharing filter on this source)"
	case d.Level == LevelUnknown:
		return "not reported (Catalyst's default is metadata)"
	case d.Inferred && d.Withholds():
		return d.levelName() + " (inferred: payloads are missing)"
	case d.Inferred:
		return d.levelName() + " (inferred: payloads are present)"
	}
	return d.levelName()
}

// levelName is the level as reported, made safe to print: a source may
// report any string.
func (d DataSharing) levelName() string { return safetext.Line(string(d.Level)) }

// PayloadText describes a payload that has no text to show, in the words
// every renderer uses. For a present payload it returns "".
func (d DataSharing) PayloadText(p Payload) string {
	switch p.State {
	case PayloadPresent:
		return ""
	case PayloadEmpty:
		return "empty"
	case PayloadWithheld:
		return d.WithheldText()
	case PayloadRedacted:
		return "redacted when saved"
	case PayloadNotRequested:
		return "not requested"
	case PayloadNotInFormat:
		return NotInFormatText
	case PayloadNoneOrEmpty:
		return NoneOrEmptyText
	}
	return "none"
}

// NotInFormatText is how every renderer describes a payload the history's
// format never carries.
const NotInFormatText = "not in this format (the source does not print it; it may have had one)"

// NoneOrEmptyText is how every renderer describes a payload the history's
// format leaves out both when none was given and when it was empty.
const NoneOrEmptyText = "none or empty (the source prints neither)"

// WithheldText is the mark of a withheld payload: it names the level, or says
// the level was not reported and that metadata is Catalyst's default.
func (d DataSharing) WithheldText() string {
	if d.Level == LevelUnknown {
		return "withheld: not shared at this organization's data-sharing level " +
			"(level not reported; Catalyst's default is metadata)"
	}
	if d.Inferred {
		return "withheld: not shared at this organization's data-sharing level (" +
			d.levelName() + ", inferred)"
	}
	return "withheld: not shared at this organization's data-sharing level (" + d.levelName() + ")"
}

// ApplyDataSharing records the data-sharing level that applied to the
// history and marks its absent payloads accordingly: where the level
// withholds payloads, every absent payload an event type can carry (and the
// run's own) is withheld; where it does not, absent is none. It may be
// called again when the level becomes known (a decoder assumes an unknown
// level; the caller may know it is full). Absent is "none or empty" in a
// format that does not tell them apart (the Dapr CLI's rows). Present,
// empty, redacted, not-requested and not-in-format payloads are left alone.
func (h *History) ApplyDataSharing(d DataSharing) {
	h.Run.DataSharing = d
	none := AbsentPayload(PayloadNone)
	if h.Format == FormatDaprCLI {
		none = AbsentPayload(PayloadNoneOrEmpty)
	}
	absent := none
	if d.Withholds() {
		absent = AbsentPayload(PayloadWithheld)
	}
	for _, e := range h.All() {
		if e.Payload.State.absent() && e.Type.PayloadField() != "" {
			e.Payload = absent
		}
	}
	for _, p := range []*Payload{&h.Run.Input, &h.Run.Output} {
		if p.State.absent() {
			*p = absent
		}
	}
	// No format names a custom status it leaves out: absent is none.
	if p := &h.Run.CustomStatus; p.State.absent() {
		*p = AbsentPayload(PayloadNone)
		if d.Withholds() {
			*p = absent
		}
	}
}

// InferLevel infers the data-sharing level a filtering source (Catalyst)
// applied from what it returned, for when the level was not reported.
// There are two levels: metadata withholds every payload, full none. So
// any payload present (or present but empty) means full; events that carry
// payloads with not one present means metadata; a history with no payload
// to judge by gives LevelUnknown.
func (h *History) InferLevel() Level {
	for _, p := range []Payload{h.Run.Input, h.Run.Output, h.Run.CustomStatus} {
		if p.State == PayloadPresent || p.State == PayloadEmpty {
			return LevelFull
		}
	}
	carriers := 0
	for _, e := range h.All() {
		if e.Type.PayloadField() == "" {
			continue
		}
		switch e.Payload.State {
		case PayloadPresent, PayloadEmpty:
			return LevelFull
		case PayloadNone, PayloadWithheld, PayloadNoneOrEmpty:
			carriers++
		}
	}
	if carriers > 0 {
		return LevelMetadata
	}
	return LevelUnknown
}

// LevelSources is what a source knows about the data-sharing level that
// applied to a history, besides what the history reports itself.
type LevelSources struct {
	// Filtered is set when Catalyst's data-sharing filter applies to the
	// source whatever the document's format: a live read, a file recorded
	// from one.
	Filtered bool
	// Recorded is the level a saved history's recording names (LevelUnknown
	// when it names none), and RecordedInferred whether twice inferred it
	// when it recorded the history.
	Recorded         Level
	RecordedInferred bool
	// Configured is the level the user gave (--data-sharing-level, or
	// data_sharing_level in the config), LevelUnknown when none.
	Configured Level
}

// ResolveDataSharing decides the data-sharing level that applied to a
// history from what it reports (reported: Run.DataSharing as the decoder
// left it) and what its source knows. Where no filter applies (neither the
// history nor the source says so), payloads are never withheld; a level a
// recording names is kept, to be shown. Where one applies, the first of
// these that is known decides:
//
//  1. the level the history reports;
//  2. the level a saved history recorded, unless twice inferred it then;
//  3. the level the user configured;
//  4. the level a saved history recorded as inferred (marked inferred);
//  5. the level infer finds in the payloads (marked inferred; nil infers
//     nothing), else the level is not reported.
func ResolveDataSharing(reported DataSharing, src LevelSources, infer func() Level) DataSharing {
	if !reported.Filtered && !src.Filtered {
		return DataSharing{Level: src.Recorded, Inferred: src.RecordedInferred && src.Recorded != LevelUnknown}
	}
	switch {
	case reported.Level != LevelUnknown:
		return DataSharing{Filtered: true, Level: reported.Level}
	case src.Recorded != LevelUnknown && !src.RecordedInferred:
		return DataSharing{Filtered: true, Level: src.Recorded}
	case src.Configured != LevelUnknown:
		return DataSharing{Filtered: true, Level: src.Configured}
	case src.Recorded != LevelUnknown:
		return DataSharing{Filtered: true, Level: src.Recorded, Inferred: true}
	}
	level := LevelUnknown
	if infer != nil {
		level = infer()
	}
	return DataSharing{Filtered: true, Level: level, Inferred: level != LevelUnknown}
}

// SettleDataSharing decides the data-sharing level of a history as its
// source read it (ResolveDataSharing, from what the history reports and
// src), records it on Run.DataSharing and marks the absent payloads: the
// one call a source makes, once, after it has added what it knows (a saved
// history's redactions first). It returns the level decided. The events
// are walked once to withhold payloads, and once more only when the level
// must be inferred from them.
func (h *History) SettleDataSharing(src LevelSources) DataSharing {
	d := ResolveDataSharing(h.Run.DataSharing, src, h.InferLevel)
	if !d.Withholds() {
		// A decoder marks no payload withheld, so there is none to turn
		// back into none: no pass over the events.
		h.Run.DataSharing = d
		return d
	}
	h.ApplyDataSharing(d)
	return d
}
