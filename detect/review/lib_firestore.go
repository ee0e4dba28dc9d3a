package review

// Firestore: FieldValue increments (firestore.Increment in Go,
// Increment(n) in the other SDKs) count twice.
func libFirestore() library {
	return library{
		name:   "Firestore",
		source: "googleapis/google-cloud-go firestore (Increment), googleapis/python-firestore (Increment), googleapis/google-cloud-dotnet Google.Cloud.Firestore (FieldValue.Increment)",
		modules: map[Lang][]string{
			LangPython: {"google"},
			LangGo:     {"cloud.google.com/", "google.golang.org/"},
		},
		rows: []api{
			{methods: []string{"Increment"}, kind: effIncrement, what: "increment ({fn})", twice: "counts twice"},
		},
	}
}
