#include "chrometraceimporter.h"
namespace plumb {
int ChromeTraceImporter::sniff(QByteArrayView, const QString &) const { return 0; }
void ChromeTraceImporter::read(ImportContext &) const {}
}
