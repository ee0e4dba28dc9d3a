package review

// MongoDB drivers: pymongo and motor, mongo-go-driver, the .NET driver.
// $inc counts twice; an insert with no _id of its own writes a second
// document; an upsert or an insert keyed by _id refuses the duplicate; a
// replace is a whole document to a key.
func libMongo() library {
	inc := func(c *libCall) bool { return anyKey(c.Expr, func(k string) bool { return k == "$inc" }) }
	return library{
		name:   "MongoDB",
		source: "mongodb/mongo-python-driver (collection.py: update_one upsert, insert_one), mongodb/mongo-go-driver (options.Update().SetUpsert), mongodb/mongo-csharp-driver (UpdateOptions.IsUpsert, Builders.Update.Inc)",
		modules: map[Lang][]string{
			LangPython: {"pymongo", "motor"},
			LangGo:     {"go.mongodb.org/"},
			LangCSharp: {"MongoDB"},
		},
		rows: []api{
			// .NET.
			{lang: LangCSharp, methods: []string{"UpdateOneAsync", "UpdateManyAsync", "FindOneAndUpdateAsync"}, when: func(c *libCall) bool { return anyCall(c.Expr, "Inc") },
				kind: effIncrement, what: "$inc ({m})", twice: "counts twice"},
			{lang: LangCSharp, methods: []string{"UpdateOneAsync", "ReplaceOneAsync"}, when: func(c *libCall) bool { return mentions(c.Expr, "IsUpsert") },
				kind: effGuard, what: "{m} with upsert", refuses: "the upsert matches the document the first run wrote"},
			{lang: LangCSharp, methods: []string{"InsertOneAsync", "InsertManyAsync"}, kind: effInsert, what: "{m}", twice: "writes a second row"},
			// Python and Go.
			{methods: []string{"update_one", "update_many", "UpdateOne", "UpdateMany", "find_one_and_update", "FindOneAndUpdate"}, when: inc,
				kind: effIncrement, what: "$inc ({m})", twice: "counts twice"},
			{methods: []string{"replace_one", "ReplaceOne"}, kind: effIdempotent, what: "{m}"},
			{methods: []string{"update_one", "UpdateOne", "update_many", "UpdateMany"}, when: func(c *libCall) bool { return isTrue(c.Keyword("upsert")) || anyCall(c.Expr, "SetUpsert") },
				kind: effGuard, what: "{m} with upsert", refuses: "the upsert matches the document the first run wrote"},
			{methods: []string{"insert_one", "InsertOne", "insert_many", "InsertMany"}, when: func(c *libCall) bool { return anyKey(c.Expr, func(k string) bool { return k == "_id" }) },
				kind: effGuard, what: "{m} with _id from the input", refuses: "the unique _id refuses the second document", key: arg(-1, "_id")},
			{methods: []string{"insert_one", "InsertOne", "insert_many", "InsertMany"}, kind: effInsert, what: "{m}", twice: "writes a second row"},
		},
	}
}
