package query

// Reads are the ports the enrollment queries read through; each query is a method.
type Reads struct {
	ReadModel ReadModel
	Published Published
}
