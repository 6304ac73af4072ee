// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_query.h"

#include "present/querypresent.h"
#include "store/readonlyquery.h"
#include "store/workspace.h"

using namespace plumb;
using cli::Args;

int runQuery(const Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import traces or logs first (plumb import PATH) or pass --workspace FILE"),
        [&](Workspace &ws) {
            ReadOnlyQuery query(ws.db());
            QueryPresenter presenter(a.queryFormat, [](const QString &s) { cli::out(s); });
            try {
                query.prepare(a.sql);
                presenter.begin(query.columns());
                QVariantList row;
                while (query.next(row))
                    presenter.row(row);
                presenter.end();
            } catch (const QueryError &e) {
                cli::err(e.message());
                return 2;
            }
            return 0;
        });
}
