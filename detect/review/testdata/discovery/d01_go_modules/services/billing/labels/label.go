package labels

// PrintLabel of the billing module is not registered anywhere.
func PrintLabel() string { return "billing" }
