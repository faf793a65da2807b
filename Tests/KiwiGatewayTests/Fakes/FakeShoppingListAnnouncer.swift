import Foundation
import Synchronization

@testable import KiwiGateway

/// Announces a list's change to this process's streams alone, as RabbitMQ brings it back to the gateway that sent it.
final class FakeShoppingListAnnouncer: ShoppingListAnnouncer {
    /// Set once the news it wakes exists: the news holds its announcer.
    private let news = Mutex<ShoppingListNews?>(nil)

    func deliver(to news: ShoppingListNews) {
        self.news.withLock { $0 = news }
    }

    func announce(_ kitchenID: UUID) async {
        news.withLock { $0 }?.wake(kitchenID)
    }
}
