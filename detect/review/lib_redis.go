package review

// Redis clients: redis-py, go-redis and StackExchange.Redis. INCR and its
// kin count twice; RPUSH, XADD and APPEND duplicate what they add; SET NX,
// SETNX and a lock refuse the second write.
func libRedis() library {
	const counts = "counts twice"
	const dup = "duplicates the content"
	incr := []string{"incr", "incrby", "incrbyfloat", "hincrby", "hincrbyfloat", "zincrby", "decr", "decrby"}
	var incrAsync []string
	for _, m := range incr {
		incrAsync = append(incrAsync, m, m+"Async")
	}
	return library{
		name:   "Redis",
		source: "redis/redis-py (commands/core.py), redis/go-redis (commands.go: Incr, SetNX, SetArgs Mode NX), StackExchange/StackExchange.Redis (IDatabase: StringIncrement, StringSet When.NotExists, LockTake)",
		modules: map[Lang][]string{
			LangPython: {"redis"},
			LangGo:     {"github.com/redis/", "github.com/go-redis/"},
			LangCSharp: {"StackExchange"},
		},
		rows: []api{
			// StackExchange.Redis.
			{lang: LangCSharp, methods: append(incrAsync, "StringIncrement", "StringIncrementAsync", "StringDecrement", "StringDecrementAsync", "HashIncrement", "HashIncrementAsync",
				"HashDecrement", "HashDecrementAsync", "SortedSetIncrement", "SortedSetIncrementAsync"), fold: true, kind: effIncrement, what: "redis {m}", twice: counts},
			{lang: LangCSharp, methods: []string{"ListRightPush", "ListRightPushAsync", "ListLeftPush", "ListLeftPushAsync", "StreamAdd", "StreamAddAsync", "StringAppend", "StringAppendAsync"},
				kind: effAppend, what: "redis {m}", twice: dup},
			{lang: LangCSharp, methods: []string{"StringSetAsync", "StringSet"}, when: func(c *libCall) bool { return mentions(c.Expr, "When.NotExists") },
				kind: effGuard, what: "SET NX ({m})", refuses: "SET NX leaves the key the first run set"},
			{lang: LangCSharp, methods: []string{"LockTakeAsync", "LockTake"}, kind: effGuard, what: "SET NX ({m})", refuses: "the lock is taken once"},
			// redis-py and go-redis.
			{methods: incr, fold: true, kind: effIncrement, what: "redis {M}", twice: counts},
			{methods: []string{"rpush", "lpush", "xadd", "rpushx", "lpushx"}, fold: true, kind: effAppend, what: "redis {M}", twice: dup},
			{methods: []string{"append"}, fold: true, hasRecv: true, recv: []string{"redis", "rdb", "cache", "kv"},
				// APPEND takes a key and a value (plus a context in Go); a
				// list's append takes one value.
				when: func(c *libCall) bool { return len(c.Args) >= 2 }, kind: effAppend, what: "redis {M}", twice: dup},
			{methods: []string{"setnx", "SetNX", "hsetnx", "HSetNX"}, kind: effGuard, what: "SET NX ({m})", refuses: "SET NX leaves the key the first run set"},
			{methods: []string{"SetArgs"}, when: func(c *libCall) bool { return anyKey(c.Expr, func(k string) bool { return k == "Mode" }) },
				kind: effGuard, what: "SET NX ({m})", refuses: "SET NX leaves the key the first run set"},
			{methods: []string{"set"}, when: func(c *libCall) bool { return isTrue(c.Keyword("nx")) }, kind: effGuard, what: "SET NX ({m})", refuses: "SET NX leaves the key the first run set"},
		},
	}
}
