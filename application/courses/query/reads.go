package query

// Reads are the ports the course queries read through; each query is a method.
type Reads struct {
	ReadModel ReadModel
	Catalog   Catalog // the published read port (other modules' view)
}
