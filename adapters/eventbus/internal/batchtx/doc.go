// Package batchtx carries, in the context, what the SQL transport's batch transaction
// shares with the router: the consumer savepoint left open between events, and the mark
// that rolls the whole batch back when the transaction itself failed.
package batchtx
