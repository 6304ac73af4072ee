// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace plumb {

// The writer thread of an import sink: the producer (the parsing thread) fills a batch of rows and
// hands it over with push(); one writer thread writes the batches in order with `write` while the
// producer fills the next. At most `maxQueued` batches wait, so memory stays flat whatever the input
// size; written batches come back cleared (Batch::clear()) for the producer to fill again. The writer
// owns the sink's connection while it runs: drain() hands it back to the producer's thread. An
// exception on the writer stops it and is rethrown to the producer by its next push(), drain() or
// finish(). The thread starts with the first push: a small import that never pushes starts none.
template <typename Batch> class BatchWriter final {
public:
    BatchWriter(size_t maxQueued, std::function<void(Batch &)> write)
        : m_maxQueued(maxQueued)
        , m_write(std::move(write))
    {
    }
    ~BatchWriter() { abandon(); }
    BatchWriter(const BatchWriter &) = delete;
    BatchWriter &operator=(const BatchWriter &) = delete;

    // Queues a filled batch (waiting while the queue is full) and returns a written one to fill
    // again, or nullptr when none is free yet.
    std::unique_ptr<Batch> push(std::unique_ptr<Batch> full)
    {
        if (!m_thread.joinable())
            m_thread = std::thread([this] { run(); });
        std::unique_ptr<Batch> next;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [this] { return m_queue.size() < m_maxQueued || m_error; });
            if (m_error)
                std::rethrow_exception(m_error);
            m_queue.push_back(std::move(full));
            if (!m_free.empty()) {
                next = std::move(m_free.back());
                m_free.pop_back();
            }
        }
        m_cv.notify_all();
        return next;
    }

    // Waits until every queued batch is written and the writer is idle: the connection is the
    // producer's until the next push().
    void drain()
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return (m_queue.empty() && !m_writing) || m_error; });
        if (m_error)
            std::rethrow_exception(m_error);
    }

    // Writes what is queued, ends the thread and rethrows the writer's error, if any.
    void finish()
    {
        stop();
        if (m_error)
            std::rethrow_exception(m_error);
    }

    // Ends the thread without writing what is still queued (an abandoned import, rolled back).
    void abandon()
    {
        {
            std::lock_guard lock(m_mutex);
            m_queue.clear();
        }
        stop();
    }

    // Whether a batch was ever pushed (the thread runs, or ran).
    [[nodiscard]] bool started() const { return m_thread.joinable() || m_stop; }

    // The batches it holds (after finish() or abandon()), for a sink that recycles them.
    std::vector<std::unique_ptr<Batch>> takeBatches()
    {
        std::lock_guard lock(m_mutex);
        std::vector<std::unique_ptr<Batch>> all = std::move(m_free);
        m_free.clear();
        for (auto &b : m_queue)
            all.push_back(std::move(b));
        m_queue.clear();
        return all;
    }

private:
    void run()
    {
        try {
            for (;;) {
                std::unique_ptr<Batch> batch;
                {
                    std::unique_lock lock(m_mutex);
                    m_cv.wait(lock, [this] { return !m_queue.empty() || m_stop; });
                    if (m_queue.empty())
                        return;
                    batch = std::move(m_queue.front());
                    m_queue.pop_front();
                    m_writing = true;
                }
                m_cv.notify_all();
                m_write(*batch);
                batch->clear();
                {
                    std::lock_guard lock(m_mutex);
                    m_free.push_back(std::move(batch));
                    m_writing = false;
                }
                m_cv.notify_all();
            }
        } catch (...) {
            std::lock_guard lock(m_mutex);
            m_error = std::current_exception();
            m_queue.clear();
            m_writing = false;
            m_cv.notify_all();
        }
    }

    void stop()
    {
        if (!m_thread.joinable())
            return;
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }

    const size_t m_maxQueued;
    const std::function<void(Batch &)> m_write;
    std::deque<std::unique_ptr<Batch>> m_queue;
    std::vector<std::unique_ptr<Batch>> m_free;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false;
    bool m_writing = false;
    std::exception_ptr m_error;
    std::thread m_thread;
};

} // namespace plumb
