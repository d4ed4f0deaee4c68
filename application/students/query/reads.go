package query

// Reads are the ports the student queries read through; each query is a method.
type Reads struct {
	ReadModel ReadModel
	History   History
	Published Published
}
