// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QPromise>
#include <QThreadPool>

#include <memory>
#include <type_traits>
#include <utility>

namespace plumb {

// Runs `fn` on the global thread pool and returns the future of its result: QtConcurrent::run's
// one use here, without linking Qt Concurrent into core (QFuture, QPromise and QThreadPool are
// Qt Core). `fn` must be copyable and must not throw.
template <typename Fn> [[nodiscard]] auto runOnPool(Fn fn) -> QFuture<std::invoke_result_t<Fn>>
{
    using T = std::invoke_result_t<Fn>;
    auto promise = std::make_shared<QPromise<T>>();
    QFuture<T> future = promise->future();
    promise->start();
    QThreadPool::globalInstance()->start([promise, fn = std::move(fn)]() mutable {
        promise->addResult(fn());
        promise->finish();
    });
    return future;
}

} // namespace plumb
