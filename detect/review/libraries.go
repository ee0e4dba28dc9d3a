package review

// libraries is every library twice knows, in the order their rows are
// tried: for a call, the first row of the call's language that
// recognises it wins, then the first row written for every language.
//
// Adding a library: write lib_<name>.go with a function returning its
// library (the rows, the modules it covers, where its API was read), add
// it to this list, and add a corpus case under testdata/corpus that
// exercises every row (TestEveryRowIsExercised). Adding an API to a
// library is a row in its file and a corpus case.
func libraries() []library {
	return []library{
		libSQL(),
		libHTTP(),
		libStripe(),
		libAWS(),
		libMail(),
		libLLM(),
		libMessaging(),
		libRedis(),
		libFirestore(),
		libMongo(),
		libDapr(),
		libORM(),
		libFiles(),
		libValues(),
		libRetry(),
		libLogging(),
		libLang(),
	}
}
