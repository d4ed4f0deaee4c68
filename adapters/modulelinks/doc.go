// Package modulelinks adapts one module's published surface (its Application's published
// queries and commands, or its directory) to the small port another module declares in
// its own words. Each file is named after the module that publishes; nobody else reads
// that module's tables. The composition root only picks these adapters.
package modulelinks
