/// What a follower of a scan heard while it waited (``ScanWatch/next(within:)``), least to most.
enum ScanNews: Comparable, Sendable {
    /// Nothing, for the whole wait.
    case quiet
    /// Only that the scan is still open (a worker started it): a follower that waits for the outcome alone need not
    /// read the record for it. The news of the outcome comes after it, from the same worker.
    case stillOpen
    /// That the scan may have changed in any way: news of a final state, or news that may have been lost.
    case changed
}
