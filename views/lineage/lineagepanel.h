// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "backgroundanalysis.h"
#include "lineage/lineagelayout.h"
#include "store/lineagereader.h"

#include <QWidget>

#include <cstdint>

class QCheckBox;
class QComboBox;
class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace plumb {

// The Lineage tab: one node's neighbourhood in the lineage graph (ML Metadata stores, OpenLineage
// events) laid out left to right along the data flow (LineageLayout), coloured by kind with failed
// executions in red and the focus outlined. Search finds a node by id, key or name; direction and
// depth choose the neighbourhood (a thousand-node store stays readable because only the focus's
// neighbourhood is drawn); a click shows the node's properties, facets, contexts and linked runs
// beside the graph, a double click makes it the focus, and "Open run" shows a linked run in the
// Experiments tab. Wheel zooms, drag pans; Export writes PNG or PDF. Reads on a worker thread.
class LineagePanel final : public QWidget {
    Q_OBJECT
public:
    explicit LineagePanel(QWidget *parent = nullptr);
    ~LineagePanel() override;

    // Every load of a workspace: keeps the focus when the node still exists, else picks the newest
    // model-like artifact (or the newest node).
    void setWorkspace(const QString &workspacePath);
    void close();
    void focusNode(int64_t nodeId);
    // Finds `what` (id, key or name): focuses a single match, else lists the matches.
    void search(const QString &what);
    void setDirection(LineageDirection direction);
    void setDepth(int depth);
    void setFoldRepeatedRuns(bool fold);
    // Writes the drawn graph to PNG, PDF or SVG (by suffix); false when it cannot.
    bool exportTo(const QString &path) const;

    [[nodiscard]] int64_t focusId() const { return m_focus; }
    [[nodiscard]] const LineageGraph &graph() const { return m_graph; }
    [[nodiscard]] const LineageLayout &layout() const { return m_layout; }
    [[nodiscard]] QGraphicsScene *scene() const { return m_scene; }
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QString detailsText() const;
    // Shows node i of graph() in the side panel, as a click does.
    void showDetails(int index);
    // Links node `nodeId` to run `runId` by hand (kept by later automatic linking) and reloads;
    // false with the reason in statusText() when the workspace cannot be written.
    bool linkToRun(int64_t nodeId, int64_t runId);

Q_SIGNALS:
    void loaded();
    void openRunRequested(int64_t runId);

protected:
    void changeEvent(QEvent *event) override; // a new palette (View > Theme) redraws the graph in it

private:
    struct Result {
        QString error;
        LineageReader::Counts counts;
        int64_t focus = 0;
        LineageGraph graph;
        std::vector<LineageNodeInfo> matches; // of a search with several
    };
    void request(const QString &searchText = {});
    void apply(const Result &r);
    void rebuildScene();

    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QString m_workspacePath;
    int64_t m_focus = 0;
    LineageReader::Counts m_counts;
    LineageGraph m_graph;
    LineageLayout m_layout;
    std::vector<LineageNodeInfo> m_matches;
    QString m_error;
    int m_selected = -1;

    QLineEdit *m_search;
    QComboBox *m_direction;
    QSpinBox *m_depth;
    QCheckBox *m_fold;
    QPushButton *m_export;
    QLabel *m_status;
    QGraphicsScene *m_scene;
    QGraphicsView *m_view;
    QTextBrowser *m_details;
    QPushButton *m_openRun;
    QPushButton *m_linkRun;
};

} // namespace plumb
