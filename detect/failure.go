package detect

import (
	"strings"

	"github.com/twice-cli/twice/catalyst"
)

// ClassifyFailure says whether a failure can have left a side effect behind
// and whether a retry can succeed, from its non-retriable flag, its error
// type, the HTTP status or gRPC code in its message, and the words of its
// message (Go, Python, .NET, Java and Node phrasings). The inner failure is
// consulted when the outer one says nothing recognisable. A nil failure is
// unclassified.
//
// When a message holds signals of several classes, the order is: the
// non-retriable flag; a specific error type (ReadTimeout, ValueError,
// TaskCanceledException; a Go TaskActivityPanic is ambiguous, as a panic may
// follow the write); a mail server's reply code (SMTP 5xx is a permanent
// rejection, 4xx a refusal); an HTTP status or gRPC code; words that show the
// request never reached the provider (connection refused, no such host);
// words of an ambiguous transport failure (timeout, reset, EOF); words of a
// permanent rejection (invalid, declined, not found). Ambiguous wins over
// permanent because mistaking a timeout for a rejection would hide a
// possible duplicate.
func ClassifyFailure(f *catalyst.Failure) FailureClass {
	for depth := 0; f != nil && depth < 8; depth++ {
		if c := classifyOne(f); c != FailureUnclassified {
			return c
		}
		f = f.Inner
	}
	return FailureUnclassified
}

func classifyOne(f *catalyst.Failure) FailureClass {
	if f.NonRetriable {
		return FailurePermanent
	}
	if c := classifyTypeName(f.Type); c != FailureUnclassified {
		return c
	}
	msg := f.Message
	if c := classifyTypeName(leadingTypeName(msg)); c != FailureUnclassified {
		return c
	}
	if c := classifySMTP(f.Type, msg); c != FailureUnclassified {
		return c
	}
	return classifyMessage(msg)
}

// smtpContext are words that show a failure came from a mail server
// (Go's net/smtp and textproto, Python's smtplib, .NET's SmtpClient,
// Jakarta Mail, nodemailer).
const smtpContext = "smtp|textproto|mailbox|server response was|recipient address"

// smtpPermanentPhrases are mail-server rejections with no reply code.
const smtpPermanentPhrases = "mailbox unavailable|mailbox not found|user unknown|no such user|" +
	"recipient address rejected|relay access denied|relaying denied"

// classifySMTP classifies a mail server's reply: a 5xx reply code (or a 5.x.x
// enhanced status code) is a permanent rejection, and the message was not
// accepted; a 4xx is a transient refusal, before the server accepted
// anything. Failures with no reply code (a dial timeout, a dropped
// connection) are left to the other rules, as are messages that do not come
// from a mail server.
func classifySMTP(typ, msg string) FailureClass {
	lower := strings.ToLower(msg)
	if !containsAnyOf(strings.ToLower(typ), smtpContext) && !containsAnyOf(lower, smtpContext) {
		return FailureUnclassified
	}
	switch smtpReplyClass(lower) {
	case '5':
		return FailurePermanent
	case '4':
		return FailureSafe
	}
	if containsAnyOf(lower, smtpPermanentPhrases) {
		return FailurePermanent
	}
	return FailureUnclassified
}

// smtpReplyClass returns the first digit ('4' or '5') of the first SMTP
// reply code ("550 ", "(550, ", "421-") or enhanced status code ("5.1.1") in
// a lower-cased message, or 0. A number after ':' or '.' or followed by ':'
// is a port or part of an address, never a reply code.
func smtpReplyClass(msg string) byte {
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c != '4' && c != '5' {
			continue
		}
		if i > 0 {
			switch msg[i-1] {
			case ' ', '(', '[', '\'', '"':
			default:
				continue
			}
		}
		j := i + 1
		for j < len(msg) && isDigit(msg[j]) {
			j++
		}
		switch {
		case j-i == 3 && (j == len(msg) || msg[j] == ' ' || msg[j] == '-' || msg[j] == ','):
			return c
		case j-i == 1 && enhancedStatusTail(msg[j:]):
			return c
		}
	}
	return 0
}

// enhancedStatusTail reports whether s is ".d.d" (one to three digits each)
// ending the message or followed by neither a digit nor a dot: the rest of
// an enhanced status code ("5.1.1"), not of an address or a version.
func enhancedStatusTail(s string) bool {
	for part := 0; part < 2; part++ {
		if len(s) < 2 || s[0] != '.' || !isDigit(s[1]) {
			return false
		}
		n := 1
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if n > 4 {
			return false
		}
		s = s[n:]
	}
	return len(s) == 0 || !isDigit(s[0]) && s[0] != '.'
}

// leadingTypeName returns the exception type a message starts with, as
// Python, Java and .NET print it ("requests.exceptions.ReadTimeout: ...",
// "java.net.SocketTimeoutException: ..."), or "".
func leadingTypeName(msg string) string {
	end := strings.IndexByte(msg, ':')
	if end <= 0 || end > 120 {
		return ""
	}
	for i := 0; i < end; i++ {
		c := msg[i]
		if !(c == '.' || c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return ""
		}
	}
	return msg[:end]
}

// classifyTypeName classifies an error type name: its last dotted segment,
// without Go's pointer star or a generic-arity suffix, lower-cased. Generic
// types (Exception, *errors.errorString, HTTPError) are unclassified, so the
// message decides.
func classifyTypeName(typ string) FailureClass {
	typ = strings.TrimSpace(typ)
	if typ == "" {
		return FailureUnclassified
	}
	typ = strings.TrimLeft(typ, "*")
	if i := strings.LastIndexAny(typ, "./"); i >= 0 {
		typ = typ[i+1:]
	}
	if i := strings.IndexAny(typ, "`[<"); i >= 0 {
		typ = typ[:i]
	}
	switch strings.ToLower(typ) {
	case "readtimeout", "readtimeouterror", "timeout", "timeouterror", "timeoutexception",
		"sockettimeoutexception", "taskcanceledexception", "operationcanceledexception",
		"httptimeoutexception", "connectionreseterror", "brokenpipeerror",
		"remotedisconnected", "chunkedencodingerror", "incompleteread",
		"deadlineexceedederror", "deadlineexceeded", "eoferror", "connectionabortederror",
		"servertimeouterror", "gatewaytimeout", "requesttimeoutexception",
		"sockettimeout", "timeoutcancellationexception", "interruptedioexception",
		"closedchannelexception", "eofexception", "servicetimeoutexception",
		"aborterror", "protocolerror", "smtpserverdisconnected",
		// A Go activity that panicked may have panicked after its write.
		"taskactivitypanic":
		return FailureAmbiguous
	case "connecttimeout", "connecttimeouterror", "connectionrefusederror",
		"connectexception", "httpconnecttimeoutexception", "unknownhostexception",
		"gaierror", "nameresolutionerror", "newconnectionerror", "toomanyrequests",
		"toomanyrequestsexception", "toomanyrequestserror", "ratelimiterror",
		"ratelimitexception", "ratelimitexceededexception", "throttlingexception",
		"noroutetohostexception", "dnserror":
		return FailureSafe
	case "valueerror", "typeerror", "keyerror", "attributeerror", "indexerror",
		"validationerror", "validationexception", "argumentexception",
		"argumentnullexception", "argumentoutofrangeexception",
		"illegalargumentexception", "nullpointerexception", "nullreferenceexception",
		"formatexception", "numberformatexception", "jsondecodeerror", "jsonexception",
		"unauthorizedaccessexception", "permissionerror", "notimplementederror",
		"notimplementedexception", "unsupportedoperationexception", "carderror",
		"invalidrequesterror", "authenticationerror", "keynotfoundexception",
		"classcastexception", "invalidcastexception", "unmarshaltypeerror",
		"syntaxerror", "assertionerror", "zerodivisionerror",
		"invalidargumentexception", "badrequestexception", "notfoundexception",
		"forbiddenexception", "conflictexception", "resourcenotfoundexception",
		"entitynotfoundexception", "duplicatekeyexception", "integrityerror",
		"uniqueviolation", "insufficientfundserror", "paymentdeclinederror",
		"businessruleexception", "domainexception", "invalidoperationexception":
		return FailurePermanent
	}
	return FailureUnclassified
}

// classifyMessage classifies an error message by its HTTP status or gRPC
// code, then by its words.
func classifyMessage(msg string) FailureClass {
	if msg == "" {
		return FailureUnclassified
	}
	lower := strings.ToLower(msg)
	if c := classifyStatusCodes(lower); c != FailureUnclassified {
		return c
	}
	if c := classifyGRPCCode(msg, lower); c != FailureUnclassified {
		return c
	}
	switch {
	case containsAnyOf(lower, safePhrases):
		return FailureSafe
	case containsAnyOf(lower, ambiguousPhrases) || containsWord(lower, "eof") || containsWord(lower, "etimedout"):
		return FailureAmbiguous
	case containsAnyOf(lower, permanentPhrases) || containsWord(lower, "invalid"):
		return FailurePermanent
	}
	return FailureUnclassified
}

// Phrase lists are constants of '|'-separated lower-case phrases, matched
// with containsAnyOf.
const (
	// safePhrases show that a request never reached the provider, or was
	// refused before any work was done.
	safePhrases = "connection refused|econnrefused|actively refused|no such host|" +
		"name or service not known|nodename nor servname|enotfound|" +
		"temporary failure in name resolution|could not resolve host|host not found|" +
		"name resolution|dns lookup|dns resolution|no route to host|network is unreachable|" +
		"too many requests|rate limit|ratelimit|rate-limit|throttl|connect timeout|" +
		"connect timed out|connecttimeout|failed to establish a new connection|dial tcp|" +
		"unable to connect|could not be established|quota exceeded|resource_exhausted|" +
		"resource exhausted"

	// ambiguousPhrases are transport failures after the request may have
	// reached the provider: the side effect may have committed.
	ambiguousPhrases = "timeout|timed out|time out|deadline|connection reset|econnreset|" +
		"reset by peer|broken pipe|epipe|socket hang up|connection aborted|connection closed|" +
		"forcibly closed|server disconnected|remote end closed|remotedisconnected|" +
		"unexpected end of stream|premature end|incomplete read|context canceled|" +
		"request was canceled|operation was canceled|bad gateway|service unavailable|" +
		"gateway time|temporarily unavailable|transport is closing|stream terminated|" +
		"goaway|connection lost|unavailable"

	// permanentPhrases are rejections a retry cannot change.
	permanentPhrases = "validation|declined|insufficient funds|insufficient_funds|not found|" +
		"rejected|forbidden|unauthorized|unauthenticated|permission denied|access denied|" +
		"bad request|unprocessable|conflict|already exists|duplicate key|unique constraint|" +
		"not allowed|malformed|unsupported|expired|does not exist|no such|illegal|" +
		"not implemented|unimplemented|missing required|is required|required field|" +
		"must be|cannot be|out of range|fraud|card_declined|invalid_request|" +
		"invalid argument|failed precondition|precondition failed|payload too large|" +
		"do not honor|stolen card|lost card|account closed|blocked"

	// reasonPhrases are the reason phrases that follow an HTTP status code
	// ("503 Service Unavailable"), each after its code ("4xx" for any
	// client error).
	reasonPhrases = "400:bad request|401:unauthorized|402:payment required|403:forbidden|" +
		"404:not found|405:method not allowed|406:not acceptable|408:request timeout|" +
		"408:request time-out|409:conflict|410:gone|412:precondition failed|413:payload too large|" +
		"413:request entity too large|422:unprocessable|429:too many requests|" +
		"500:internal server error|501:not implemented|502:bad gateway|503:service unavailable|" +
		"504:gateway timeout|504:gateway time-out|4xx:client error|5xx:server error"

	// statusIntroducers precede an HTTP status code ("status code 404").
	statusIntroducers = "status|http|code|response|returned|error|got|received"

	// grpcCodes are the upper-case gRPC code names Java and the wire print.
	grpcCodes = "DEADLINE_EXCEEDED|RESOURCE_EXHAUSTED|INVALID_ARGUMENT|FAILED_PRECONDITION|" +
		"PERMISSION_DENIED|ALREADY_EXISTS|NOT_FOUND|UNAUTHENTICATED|UNAVAILABLE|" +
		"OUT_OF_RANGE|UNIMPLEMENTED"
)

// classifyStatusCodes looks for HTTP status codes in context ("503 Service
// Unavailable", "status code 404", "HTTP 429", "response code: 503") in a
// lower-cased message and classifies by the first one found.
func classifyStatusCodes(msg string) FailureClass {
	for i := 0; i+3 <= len(msg); i++ {
		if !isDigit(msg[i]) || i > 0 && isAlnum(msg[i-1]) {
			continue
		}
		j := i
		for j < len(msg) && isDigit(msg[j]) {
			j++
		}
		if j-i != 3 || j < len(msg) && isAlnum(msg[j]) {
			i = j
			continue
		}
		code := int(msg[i]-'0')*100 + int(msg[i+1]-'0')*10 + int(msg[i+2]-'0')
		if code >= 400 && code <= 599 && statusInContext(msg, i, j) {
			return classOfStatus(code)
		}
		i = j
	}
	return FailureUnclassified
}

func classOfStatus(code int) FailureClass {
	switch {
	case code == 408:
		return FailureAmbiguous
	case code == 429:
		return FailureSafe
	case code < 500, code == 501, code == 505:
		return FailurePermanent
	}
	return FailureAmbiguous
}

// statusInContext reports whether the number at msg[i:j] reads as an HTTP
// status: followed by its own reason phrase, or preceded by a word that
// introduces one.
func statusInContext(msg string, i, j int) bool {
	code := msg[i:j]
	after := strings.TrimLeft(msg[j:], " (:-")
	for list := reasonPhrases; list != ""; {
		var entry string
		entry, list, _ = strings.Cut(list, "|")
		c, phrase, _ := strings.Cut(entry, ":")
		if (c == code || c[1:] == "xx" && c[0] == code[0]) && strings.HasPrefix(after, phrase) {
			return true
		}
	}
	return containsAnyOf(msg[max(0, i-28):i], statusIntroducers)
}

// classifyGRPCCode classifies a gRPC status as Go ("code = Unavailable"),
// Java and the wire ("UNAVAILABLE", "DEADLINE_EXCEEDED") print it.
func classifyGRPCCode(msg, lower string) FailureClass {
	code := ""
	if i := strings.Index(lower, "code = "); i >= 0 {
		rest := lower[i+len("code = "):]
		end := 0
		for end < len(rest) && isAlnum(rest[end]) {
			end++
		}
		code = strings.ReplaceAll(rest[:end], "_", "")
	} else {
		for list := grpcCodes; list != ""; {
			var c string
			c, list, _ = strings.Cut(list, "|")
			if containsWord(msg, c) {
				code = strings.ToLower(strings.ReplaceAll(c, "_", ""))
				break
			}
		}
	}
	switch code {
	case "":
		return FailureUnclassified
	case "unavailable", "deadlineexceeded", "canceled", "cancelled", "internal", "dataloss":
		if containsAnyOf(lower, safePhrases) {
			return FailureSafe
		}
		return FailureAmbiguous
	case "resourceexhausted", "aborted":
		return FailureSafe
	case "invalidargument", "notfound", "alreadyexists", "permissiondenied",
		"unauthenticated", "failedprecondition", "outofrange", "unimplemented":
		return FailurePermanent
	}
	return FailureUnclassified
}

// containsAnyOf reports whether s contains any phrase of the '|'-separated
// list.
func containsAnyOf(s, list string) bool {
	for list != "" {
		var p string
		p, list, _ = strings.Cut(list, "|")
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s bounded by non-alphanumeric
// characters.
func containsWord(s, w string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(w)
		if (i == 0 || !isAlnum(s[i-1])) && (end == len(s) || !isAlnum(s[end])) {
			return true
		}
		off = i + 1
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}
