#include "beerlistmodel.h"
#include "fields.h"

namespace Gatehouse::Console {

BeerListModel::BeerListModel(AdminClient *client, QObject *parent) : LiveListModel(client, parent)
{}

QHash<int, QByteArray> BeerListModel::roleNames() const
{
    return {
        {IdRole, "beerId"},
        {NameRole, "beerName"},
        {StyleRole, "beerStyle"},
        {StyleTextRole, "beerStyleText"},
        {UpcRole, "upc"},
        {PriceRole, "price"},
        {QuantityOnHandRole, "quantityOnHand"},
        {DiscontinuedRole, "discontinued"},
    };
}

QString BeerListModel::nameOfUpc(const QString &upc) const
{
    for (const QJsonObject &beer : rows()) {
        if (str(beer, "upc") == upc)
            return str(beer, "beerName");
    }
    return {};
}

QString BeerListModel::styleText(const QString &style)
{
    // A catalog value, shown as the catalog names it: "PALE_ALE" -> "Pale ale".
    if (style == QLatin1String("IPA"))
        return style;
    QString text = style.toLower().replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

QVariant BeerListModel::value(const QJsonObject &row, int role) const
{
    switch (role) {
    case IdRole:
        return str(row, "id");
    case NameRole:
    case Qt::DisplayRole:
        return str(row, "beerName");
    case StyleRole:
        return str(row, "beerStyle");
    case StyleTextRole:
        return styleText(str(row, "beerStyle"));
    case UpcRole:
        return str(row, "upc");
    case PriceRole:
        return str(row, "price");
    case QuantityOnHandRole:
        return row.value(QLatin1String("quantityOnHand")).toInt();
    case DiscontinuedRole:
        return row.value(QLatin1String("discontinued")).toBool();
    default:
        return {};
    }
}

ApiCall BeerListModel::listCall() const
{
    return {"GET", QStringLiteral("/beers"), {}, {}};
}

bool BeerListModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    return str(a, "beerName").compare(str(b, "beerName"), Qt::CaseInsensitive) < 0;
}

void BeerListModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("beer.stock"))
        upsert(event.data);
}

} // namespace Gatehouse::Console
