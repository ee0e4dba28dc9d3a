// Package catalyst is twice's model of a Dapr Workflow run and the one
// place its histories are read: a History is a Run and its events in the
// order the engine appended them (never re-sorted), with the Traits its
// source has (what the source can and cannot say: Lossy, Reordered,
// TimeResolution, …), set by the decoder so that no reader asks which
// format a history came in.
//
// Decode, DecodeAll and DecodeValue read every wire format twice knows, by
// content (Dapr GetInstanceHistory protojson, Catalyst's flattened events,
// the Dapr CLI's JSON, an MCP tool result or JSON-RPC response around one
// of them); an input that is none of them is a *FormatError and one that
// breaks off a *DecodeError, never a partial history. datasharing.go is
// where the organization's data-sharing level is decided (ParseLevel reads
// one a person gave; ResolveDataSharing and History.SettleDataSharing
// decide the level that applied), and so whether an absent payload was
// withheld or never given.
//
// Source (ListRuns, History) is how histories come in: catalyst/live reads
// Catalyst's MCP server, fixtures reads files and the bundled demos. The
// package imports no terminal library; text from a history reaches a
// terminal only through catalyst/safetext. docs/architecture.md has the
// map and the recipe for adding an event field or an input format.
package catalyst
