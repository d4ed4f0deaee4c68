package query

// Reads are the ports the order queries read through; each query is a method.
type Reads struct {
	ReadModel ReadModel
}
