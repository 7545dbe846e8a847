"""Generated: do not edit. The bundled standard map's TOML text and its data as JSON
text, so that `judge adjudicate` reads the map without the TOML parser (2% of a run's
instructions, import included). maps._map_data takes DATA only for a file whose text is
SOURCE exactly; any other reads the TOML. tests/test_map_snapshot.py checks both against
maps/; UPDATE_SNAPSHOTS=1 writes this module again."""

# ruff: noqa: E501

SOURCE: dict[str, str] = {
    "standard": (
        "# The standard Diplomacy map: 75 spaces plus impassable Switzerland.\n"
        "# Province keys are the 2000 rulebook's abbreviations; aliases include the 1992\n"
        "# rulebook's abbreviations where they differ, and common spellings.\n"
        'name = "standard"\n'
        'title = "Standard Diplomacy"\n'
        "first_year = 1901\n"
        "victory_centers = 18\n"
        "\n"
        "[powers.AUSTRIA]\n"
        'name = "Austria"\n'
        'adjective = "Austrian"\n'
        'initial = "A"\n'
        'aliases = ["AUS", "Austria-Hungary"]\n'
        'home_centers = ["BUD", "TRI", "VIE"]\n'
        'units = ["A VIE", "A BUD", "F TRI"]\n'
        "\n"
        "[powers.ENGLAND]\n"
        'name = "England"\n'
        'adjective = "English"\n'
        'initial = "E"\n'
        'aliases = ["ENG", "Britain", "Great Britain"]\n'
        'home_centers = ["EDI", "LON", "LVP"]\n'
        'units = ["F EDI", "F LON", "A LVP"]\n'
        "\n"
        "[powers.FRANCE]\n"
        'name = "France"\n'
        'adjective = "French"\n'
        'initial = "F"\n'
        'aliases = ["FRA"]\n'
        'home_centers = ["BRE", "MAR", "PAR"]\n'
        'units = ["F BRE", "A MAR", "A PAR"]\n'
        "\n"
        "[powers.GERMANY]\n"
        'name = "Germany"\n'
        'adjective = "German"\n'
        'initial = "G"\n'
        'aliases = ["GER"]\n'
        'home_centers = ["BER", "KIE", "MUN"]\n'
        'units = ["F KIE", "A BER", "A MUN"]\n'
        "\n"
        "[powers.ITALY]\n"
        'name = "Italy"\n'
        'adjective = "Italian"\n'
        'initial = "I"\n'
        'aliases = ["ITA"]\n'
        'home_centers = ["NAP", "ROM", "VEN"]\n'
        'units = ["F NAP", "A ROM", "A VEN"]\n'
        "\n"
        "[powers.RUSSIA]\n"
        'name = "Russia"\n'
        'adjective = "Russian"\n'
        'initial = "R"\n'
        'aliases = ["RUS"]\n'
        'home_centers = ["MOS", "SEV", "STP", "WAR"]\n'
        'units = ["F STP/SC", "A MOS", "A WAR", "F SEV"]\n'
        "\n"
        "[powers.TURKEY]\n"
        'name = "Turkey"\n'
        'adjective = "Turkish"\n'
        'initial = "T"\n'
        'aliases = ["TUR"]\n'
        'home_centers = ["ANK", "CON", "SMY"]\n'
        'units = ["F ANK", "A CON", "A SMY"]\n'
        "\n"
        "[provinces.ADR]\n"
        'name = "Adriatic Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Adriatic"]\n'
        'fleet = ["ALB", "APU", "ION", "TRI", "VEN"]\n'
        "\n"
        "[provinces.AEG]\n"
        'name = "Aegean Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Aegean"]\n'
        'fleet = ["BUL/SC", "CON", "EAS", "GRE", "ION", "SMY"]\n'
        "\n"
        "[provinces.ALB]\n"
        'name = "Albania"\n'
        'kind = "coast"\n'
        'army = ["GRE", "SER", "TRI"]\n'
        'fleet = ["ADR", "GRE", "ION", "TRI"]\n'
        "\n"
        "[provinces.ANK]\n"
        'name = "Ankara"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["ARM", "CON", "SMY"]\n'
        'fleet = ["ARM", "BLA", "CON"]\n'
        "\n"
        "[provinces.APU]\n"
        'name = "Apulia"\n'
        'kind = "coast"\n'
        'army = ["NAP", "ROM", "VEN"]\n'
        'fleet = ["ADR", "ION", "NAP", "VEN"]\n'
        "\n"
        "[provinces.ARM]\n"
        'name = "Armenia"\n'
        'kind = "coast"\n'
        'army = ["ANK", "SEV", "SMY", "SYR"]\n'
        'fleet = ["ANK", "BLA", "SEV"]\n'
        "\n"
        "[provinces.BAL]\n"
        'name = "Baltic Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Baltic"]\n'
        'fleet = ["BER", "BOT", "DEN", "KIE", "LVN", "PRU", "SWE"]\n'
        "\n"
        "[provinces.BAR]\n"
        'name = "Barents Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Barents"]\n'
        'fleet = ["NWG", "NWY", "STP/NC"]\n'
        "\n"
        "[provinces.BEL]\n"
        'name = "Belgium"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["BUR", "HOL", "PIC", "RUH"]\n'
        'fleet = ["ENG", "HOL", "NTH", "PIC"]\n'
        "\n"
        "[provinces.BER]\n"
        'name = "Berlin"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["KIE", "MUN", "PRU", "SIL"]\n'
        'fleet = ["BAL", "KIE", "PRU"]\n'
        "\n"
        "[provinces.BLA]\n"
        'name = "Black Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Black"]\n'
        'fleet = ["ANK", "ARM", "BUL/EC", "CON", "RUM", "SEV"]\n'
        "\n"
        "[provinces.BOH]\n"
        'name = "Bohemia"\n'
        'kind = "land"\n'
        'army = ["GAL", "MUN", "SIL", "TYR", "VIE"]\n'
        "\n"
        "[provinces.BOT]\n"
        'sort_name = "Bothnia, Gulf of"  # DPTG XIII alphabetical list\n'
        'name = "Gulf of Bothnia"\n'
        'kind = "sea"\n'
        'aliases = ["GoB", "Bothnia", "Bothnian Gulf"]\n'
        'fleet = ["BAL", "FIN", "LVN", "STP/SC", "SWE"]\n'
        "\n"
        "[provinces.BRE]\n"
        'name = "Brest"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["GAS", "PAR", "PIC"]\n'
        'fleet = ["ENG", "GAS", "MAO", "PIC"]\n'
        "\n"
        "[provinces.BUD]\n"
        'name = "Budapest"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'army = ["GAL", "RUM", "SER", "TRI", "VIE"]\n'
        "\n"
        "[provinces.BUL]\n"
        'name = "Bulgaria"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Bulg"]\n'
        'army = ["CON", "GRE", "RUM", "SER"]\n'
        'default_coast = "EC"  # for games that fill in a missing coast (DATC 4.B; maps/README.md)\n'
        "[provinces.BUL.coasts.EC]\n"
        'fleet = ["BLA", "CON", "RUM"]\n'
        "[provinces.BUL.coasts.SC]\n"
        'fleet = ["AEG", "CON", "GRE"]\n'
        "\n"
        "[provinces.BUR]\n"
        'name = "Burgundy"\n'
        'kind = "land"\n'
        'aliases = ["Burg"]\n'
        'army = ["BEL", "GAS", "MAR", "MUN", "PAR", "PIC", "RUH"]\n'
        "\n"
        "[provinces.CLY]\n"
        'name = "Clyde"\n'
        'kind = "coast"\n'
        'army = ["EDI", "LVP"]\n'
        'fleet = ["EDI", "LVP", "NAO", "NWG"]\n'
        "\n"
        "[provinces.CON]\n"
        'name = "Constantinople"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Const", "Istanbul"]\n'
        'army = ["ANK", "BUL", "SMY"]\n'
        'fleet = ["AEG", "ANK", "BLA", "BUL/EC", "BUL/SC", "SMY"]\n'
        "\n"
        "[provinces.DEN]\n"
        'name = "Denmark"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["KIE", "SWE"]\n'
        'fleet = ["BAL", "HEL", "KIE", "NTH", "SKA", "SWE"]\n'
        "\n"
        "[provinces.EAS]\n"
        'name = "Eastern Mediterranean"\n'
        'kind = "sea"\n'
        'aliases = ["East", "Eastern Med", "East Med", "EMed", "Eastern Mediterranean Sea"]\n'
        'fleet = ["AEG", "ION", "SMY", "SYR"]\n'
        "\n"
        "[provinces.EDI]\n"
        'name = "Edinburgh"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Edinburg", "Ed"]\n'
        'army = ["CLY", "LVP", "YOR"]\n'
        'fleet = ["CLY", "NTH", "NWG", "YOR"]\n'
        "\n"
        "[provinces.ENG]\n"
        'name = "English Channel"\n'
        'kind = "sea"\n'
        'aliases = ["Ech", "Channel"]\n'
        'fleet = ["BEL", "BRE", "IRI", "LON", "MAO", "NTH", "PIC", "WAL"]\n'
        "\n"
        "[provinces.FIN]\n"
        'name = "Finland"\n'
        'kind = "coast"\n'
        'army = ["NWY", "STP", "SWE"]\n'
        'fleet = ["BOT", "STP/SC", "SWE"]\n'
        "\n"
        "[provinces.GAL]\n"
        'name = "Galicia"\n'
        'kind = "land"\n'
        'army = ["BOH", "BUD", "RUM", "SIL", "UKR", "VIE", "WAR"]\n'
        "\n"
        "[provinces.GAS]\n"
        'name = "Gascony"\n'
        'kind = "coast"\n'
        'aliases = ["Gasc"]\n'
        'army = ["BRE", "BUR", "MAR", "PAR", "SPA"]\n'
        'fleet = ["BRE", "MAO", "SPA/NC"]\n'
        "\n"
        "[provinces.GRE]\n"
        'name = "Greece"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["ALB", "BUL", "SER"]\n'
        'fleet = ["AEG", "ALB", "BUL/SC", "ION"]\n'
        "\n"
        "[provinces.HEL]\n"
        'name = "Heligoland Bight"\n'
        'kind = "sea"\n'
        'aliases = ["Helgoland Bight", "Heligoland", "Helgoland", "Helgo", "Helg"]\n'
        'fleet = ["DEN", "HOL", "KIE", "NTH"]\n'
        "\n"
        "[provinces.HOL]\n"
        'name = "Holland"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Netherlands"]\n'
        'army = ["BEL", "KIE", "RUH"]\n'
        'fleet = ["BEL", "HEL", "KIE", "NTH"]\n'
        "\n"
        "[provinces.ION]\n"
        'name = "Ionian Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Ionian"]\n'
        'fleet = ["ADR", "AEG", "ALB", "APU", "EAS", "GRE", "NAP", "TUN", "TYS"]\n'
        "\n"
        "[provinces.IRI]\n"
        'name = "Irish Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Irish"]\n'
        'fleet = ["ENG", "LVP", "MAO", "NAO", "WAL"]\n'
        "\n"
        "[provinces.KIE]\n"
        'name = "Kiel"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Kiel"]\n'
        'army = ["BER", "DEN", "HOL", "MUN", "RUH"]\n'
        'fleet = ["BAL", "BER", "DEN", "HEL", "HOL"]\n'
        "\n"
        "[provinces.LON]\n"
        'name = "London"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["WAL", "YOR"]\n'
        'fleet = ["ENG", "NTH", "WAL", "YOR"]\n'
        "\n"
        "[provinces.LVN]\n"
        'name = "Livonia"\n'
        'kind = "coast"\n'
        'army = ["MOS", "PRU", "STP", "WAR"]\n'
        'fleet = ["BAL", "BOT", "PRU", "STP/SC"]\n'
        "\n"
        "[provinces.LVP]\n"
        'name = "Liverpool"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Liv", "Lpl"]\n'
        'army = ["CLY", "EDI", "WAL", "YOR"]\n'
        'fleet = ["CLY", "IRI", "NAO", "WAL"]\n'
        "\n"
        "[provinces.LYO]\n"
        'sort_name = "Lyon, Gulf of"  # DPTG XIII alphabetical list\n'
        'name = "Gulf of Lyon"\n'
        'kind = "sea"\n'
        'aliases = ["GoL", "Gulf of Lions", "Gulf of Lyons", "Lyon", "Lyons"]\n'
        'fleet = ["MAR", "PIE", "SPA/SC", "TUS", "TYS", "WES"]\n'
        "\n"
        "[provinces.MAO]\n"
        'name = "Mid-Atlantic Ocean"\n'
        'kind = "sea"\n'
        'aliases = ["MAt", "Mid", "Mid Atlantic", "Mid Atlantic Ocean"]\n'
        'fleet = ["BRE", "ENG", "GAS", "IRI", "NAF", "NAO", "POR", "SPA/NC", "SPA/SC", "WES"]\n'
        "\n"
        "[provinces.MAR]\n"
        'name = "Marseilles"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Marseille", "Mars"]\n'
        'army = ["BUR", "GAS", "PIE", "SPA"]\n'
        'fleet = ["LYO", "PIE", "SPA/SC"]\n'
        "\n"
        "[provinces.MOS]\n"
        'name = "Moscow"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'army = ["LVN", "SEV", "STP", "UKR", "WAR"]\n'
        "\n"
        "[provinces.MUN]\n"
        'name = "Munich"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'aliases = ["Munchen", "M\u00fcnchen"]\n'
        'army = ["BER", "BOH", "BUR", "KIE", "RUH", "SIL", "TYR"]\n'
        "\n"
        "[provinces.NAF]\n"
        'name = "North Africa"\n'
        'kind = "coast"\n'
        'army = ["TUN"]\n'
        'fleet = ["MAO", "TUN", "WES"]\n'
        "\n"
        "[provinces.NAO]\n"
        'name = "North Atlantic Ocean"\n'
        'kind = "sea"\n'
        'aliases = ["NAt", "North Atlantic"]\n'
        'fleet = ["CLY", "IRI", "LVP", "MAO", "NWG"]\n'
        "\n"
        "[provinces.NAP]\n"
        'name = "Naples"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Napoli"]\n'
        'army = ["APU", "ROM"]\n'
        'fleet = ["APU", "ION", "ROM", "TYS"]\n'
        "\n"
        "[provinces.NTH]\n"
        'name = "North Sea"\n'
        'kind = "sea"\n'
        'fleet = ["BEL", "DEN", "EDI", "ENG", "HEL", "HOL", "LON", "NWG", "NWY", "SKA", "YOR"]\n'
        "\n"
        "[provinces.NWG]\n"
        'name = "Norwegian Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Nrg", "Norwegian"]\n'
        'fleet = ["BAR", "CLY", "EDI", "NAO", "NTH", "NWY"]\n'
        "\n"
        "[provinces.NWY]\n"
        'name = "Norway"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Norw"]\n'
        'army = ["FIN", "STP", "SWE"]\n'
        'fleet = ["BAR", "NTH", "NWG", "SKA", "STP/NC", "SWE"]\n'
        "\n"
        "[provinces.PAR]\n"
        'name = "Paris"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'army = ["BRE", "BUR", "GAS", "PIC"]\n'
        "\n"
        "[provinces.PIC]\n"
        'name = "Picardy"\n'
        'kind = "coast"\n'
        'army = ["BEL", "BRE", "BUR", "PAR"]\n'
        'fleet = ["BEL", "BRE", "ENG"]\n'
        "\n"
        "[provinces.PIE]\n"
        'name = "Piedmont"\n'
        'kind = "coast"\n'
        'aliases = ["Pied"]\n'
        'army = ["MAR", "TUS", "TYR", "VEN"]\n'
        'fleet = ["LYO", "MAR", "TUS"]\n'
        "\n"
        "[provinces.POR]\n"
        'name = "Portugal"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Port"]\n'
        'army = ["SPA"]\n'
        'fleet = ["MAO", "SPA/NC", "SPA/SC"]\n'
        "\n"
        "[provinces.PRU]\n"
        'name = "Prussia"\n'
        'kind = "coast"\n'
        'army = ["BER", "LVN", "SIL", "WAR"]\n'
        'fleet = ["BAL", "BER", "LVN"]\n'
        "\n"
        "[provinces.ROM]\n"
        'name = "Rome"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Rome", "Roma"]\n'
        'army = ["APU", "NAP", "TUS", "VEN"]\n'
        'fleet = ["NAP", "TUS", "TYS"]\n'
        "\n"
        "[provinces.RUH]\n"
        'name = "Ruhr"\n'
        'kind = "land"\n'
        'aliases = ["Ruhr"]\n'
        'army = ["BEL", "BUR", "HOL", "KIE", "MUN"]\n'
        "\n"
        "[provinces.RUM]\n"
        'name = "Rumania"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Romania", "Roumania"]\n'
        'army = ["BUD", "BUL", "GAL", "SER", "SEV", "UKR"]\n'
        'fleet = ["BLA", "BUL/EC", "SEV"]\n'
        "\n"
        "[provinces.SER]\n"
        'name = "Serbia"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'army = ["ALB", "BUD", "BUL", "GRE", "RUM", "TRI"]\n'
        "\n"
        "[provinces.SEV]\n"
        'name = "Sevastopol"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Sebastopol", "Sevastapol"]\n'
        'army = ["ARM", "MOS", "RUM", "UKR"]\n'
        'fleet = ["ARM", "BLA", "RUM"]\n'
        "\n"
        "[provinces.SIL]\n"
        'name = "Silesia"\n'
        'kind = "land"\n'
        'army = ["BER", "BOH", "GAL", "MUN", "PRU", "WAR"]\n'
        "\n"
        "[provinces.SKA]\n"
        'name = "Skagerrak"\n'
        'kind = "sea"\n'
        'aliases = ["Skag", "Skagerak", "Skaggerak", "Skagerrack"]\n'
        'fleet = ["DEN", "NTH", "NWY", "SWE"]\n'
        "\n"
        "[provinces.SMY]\n"
        'name = "Smyrna"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Izmir"]\n'
        'army = ["ANK", "ARM", "CON", "SYR"]\n'
        'fleet = ["AEG", "CON", "EAS", "SYR"]\n'
        "\n"
        "[provinces.SPA]\n"
        'name = "Spain"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Spn"]\n'
        'army = ["GAS", "MAR", "POR"]\n'
        'default_coast = "SC"  # the DATC\'s guess (6.B.7, 6.B.8): "probably the south coast"\n'
        "[provinces.SPA.coasts.NC]\n"
        'fleet = ["GAS", "MAO", "POR"]\n'
        "[provinces.SPA.coasts.SC]\n"
        'fleet = ["LYO", "MAO", "MAR", "POR", "WES"]\n'
        "\n"
        "[provinces.STP]\n"
        'sort_name = "Saint Petersburg"  # DPTG XIII alphabetical list\n'
        'name = "St Petersburg"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["St. Petersburg", "StP", "Saint Petersburg", "Petersburg", "StPete"]\n'
        'army = ["FIN", "LVN", "MOS", "NWY"]\n'
        'default_coast = "NC"\n'
        "[provinces.STP.coasts.NC]\n"
        'fleet = ["BAR", "NWY"]\n'
        "[provinces.STP.coasts.SC]\n"
        'fleet = ["BOT", "FIN", "LVN"]\n'
        "\n"
        "[provinces.SWE]\n"
        'name = "Sweden"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'army = ["DEN", "FIN", "NWY"]\n'
        'fleet = ["BAL", "BOT", "DEN", "FIN", "NWY", "SKA"]\n'
        "\n"
        "[provinces.SWI]\n"
        'name = "Switzerland"\n'
        'kind = "impassable"\n'
        "\n"
        "[provinces.SYR]\n"
        'name = "Syria"\n'
        'kind = "coast"\n'
        'army = ["ARM", "SMY"]\n'
        'fleet = ["EAS", "SMY"]\n'
        "\n"
        "[provinces.TRI]\n"
        'name = "Trieste"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Triest"]\n'
        'army = ["ALB", "BUD", "SER", "TYR", "VEN", "VIE"]\n'
        'fleet = ["ADR", "ALB", "VEN"]\n'
        "\n"
        "[provinces.TUN]\n"
        'name = "Tunis"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Tunisia"]\n'
        'army = ["NAF"]\n'
        'fleet = ["ION", "NAF", "TYS", "WES"]\n'
        "\n"
        "[provinces.TUS]\n"
        'name = "Tuscany"\n'
        'kind = "coast"\n'
        'aliases = ["Tusc"]\n'
        'army = ["PIE", "ROM", "VEN"]\n'
        'fleet = ["LYO", "PIE", "ROM", "TYS"]\n'
        "\n"
        "[provinces.TYR]\n"
        'name = "Tyrolia"\n'
        'kind = "land"\n'
        'aliases = ["Tyl", "Tyrol"]\n'
        'army = ["BOH", "MUN", "PIE", "TRI", "VEN", "VIE"]\n'
        "\n"
        "[provinces.TYS]\n"
        'name = "Tyrrhenian Sea"\n'
        'kind = "sea"\n'
        'aliases = ["Tyn", "Tyrr", "Tyrrhenian"]\n'
        'fleet = ["ION", "LYO", "NAP", "ROM", "TUN", "TUS", "WES"]\n'
        "\n"
        "[provinces.UKR]\n"
        'name = "Ukraine"\n'
        'kind = "land"\n'
        'army = ["GAL", "MOS", "RUM", "SEV", "WAR"]\n'
        "\n"
        "[provinces.VEN]\n"
        'name = "Venice"\n'
        'kind = "coast"\n'
        "supply_center = true\n"
        'aliases = ["Venezia"]\n'
        'army = ["APU", "PIE", "ROM", "TRI", "TUS", "TYR"]\n'
        'fleet = ["ADR", "APU", "TRI"]\n'
        "\n"
        "[provinces.VIE]\n"
        'name = "Vienna"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'aliases = ["Wien"]\n'
        'army = ["BOH", "BUD", "GAL", "TRI", "TYR"]\n'
        "\n"
        "[provinces.WAL]\n"
        'name = "Wales"\n'
        'kind = "coast"\n'
        'army = ["LON", "LVP", "YOR"]\n'
        'fleet = ["ENG", "IRI", "LON", "LVP"]\n'
        "\n"
        "[provinces.WAR]\n"
        'name = "Warsaw"\n'
        'kind = "land"\n'
        "supply_center = true\n"
        'army = ["GAL", "LVN", "MOS", "PRU", "SIL", "UKR"]\n'
        "\n"
        "[provinces.WES]\n"
        'name = "Western Mediterranean"\n'
        'kind = "sea"\n'
        'aliases = ["West", "Western Med", "West Med", "WMed", "Western Mediterranean Sea"]\n'
        'fleet = ["LYO", "MAO", "NAF", "SPA/SC", "TUN", "TYS"]\n'
        "\n"
        "[provinces.YOR]\n"
        'name = "Yorkshire"\n'
        'kind = "coast"\n'
        'aliases = ["York"]\n'
        'army = ["EDI", "LON", "LVP", "WAL"]\n'
        'fleet = ["EDI", "LON", "NTH"]\n'
    ),
}
DATA: dict[str, str] = {
    "standard": (
        "{\n"
        ' "name": "standard",\n'
        ' "title": "Standard Diplomacy",\n'
        ' "first_year": 1901,\n'
        ' "victory_centers": 18,\n'
        ' "powers": {\n'
        '  "AUSTRIA": {\n'
        '   "name": "Austria",\n'
        '   "adjective": "Austrian",\n'
        '   "initial": "A",\n'
        '   "aliases": [\n'
        '    "AUS",\n'
        '    "Austria-Hungary"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "BUD",\n'
        '    "TRI",\n'
        '    "VIE"\n'
        "   ],\n"
        '   "units": [\n'
        '    "A VIE",\n'
        '    "A BUD",\n'
        '    "F TRI"\n'
        "   ]\n"
        "  },\n"
        '  "ENGLAND": {\n'
        '   "name": "England",\n'
        '   "adjective": "English",\n'
        '   "initial": "E",\n'
        '   "aliases": [\n'
        '    "ENG",\n'
        '    "Britain",\n'
        '    "Great Britain"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "EDI",\n'
        '    "LON",\n'
        '    "LVP"\n'
        "   ],\n"
        '   "units": [\n'
        '    "F EDI",\n'
        '    "F LON",\n'
        '    "A LVP"\n'
        "   ]\n"
        "  },\n"
        '  "FRANCE": {\n'
        '   "name": "France",\n'
        '   "adjective": "French",\n'
        '   "initial": "F",\n'
        '   "aliases": [\n'
        '    "FRA"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "BRE",\n'
        '    "MAR",\n'
        '    "PAR"\n'
        "   ],\n"
        '   "units": [\n'
        '    "F BRE",\n'
        '    "A MAR",\n'
        '    "A PAR"\n'
        "   ]\n"
        "  },\n"
        '  "GERMANY": {\n'
        '   "name": "Germany",\n'
        '   "adjective": "German",\n'
        '   "initial": "G",\n'
        '   "aliases": [\n'
        '    "GER"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "BER",\n'
        '    "KIE",\n'
        '    "MUN"\n'
        "   ],\n"
        '   "units": [\n'
        '    "F KIE",\n'
        '    "A BER",\n'
        '    "A MUN"\n'
        "   ]\n"
        "  },\n"
        '  "ITALY": {\n'
        '   "name": "Italy",\n'
        '   "adjective": "Italian",\n'
        '   "initial": "I",\n'
        '   "aliases": [\n'
        '    "ITA"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "NAP",\n'
        '    "ROM",\n'
        '    "VEN"\n'
        "   ],\n"
        '   "units": [\n'
        '    "F NAP",\n'
        '    "A ROM",\n'
        '    "A VEN"\n'
        "   ]\n"
        "  },\n"
        '  "RUSSIA": {\n'
        '   "name": "Russia",\n'
        '   "adjective": "Russian",\n'
        '   "initial": "R",\n'
        '   "aliases": [\n'
        '    "RUS"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "MOS",\n'
        '    "SEV",\n'
        '    "STP",\n'
        '    "WAR"\n'
        "   ],\n"
        '   "units": [\n'
        '    "F STP/SC",\n'
        '    "A MOS",\n'
        '    "A WAR",\n'
        '    "F SEV"\n'
        "   ]\n"
        "  },\n"
        '  "TURKEY": {\n'
        '   "name": "Turkey",\n'
        '   "adjective": "Turkish",\n'
        '   "initial": "T",\n'
        '   "aliases": [\n'
        '    "TUR"\n'
        "   ],\n"
        '   "home_centers": [\n'
        '    "ANK",\n'
        '    "CON",\n'
        '    "SMY"\n'
        "   ],\n"
        '   "units": [\n'
        '    "F ANK",\n'
        '    "A CON",\n'
        '    "A SMY"\n'
        "   ]\n"
        "  }\n"
        " },\n"
        ' "provinces": {\n'
        '  "ADR": {\n'
        '   "name": "Adriatic Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Adriatic"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ALB",\n'
        '    "APU",\n'
        '    "ION",\n'
        '    "TRI",\n'
        '    "VEN"\n'
        "   ]\n"
        "  },\n"
        '  "AEG": {\n'
        '   "name": "Aegean Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Aegean"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BUL/SC",\n'
        '    "CON",\n'
        '    "EAS",\n'
        '    "GRE",\n'
        '    "ION",\n'
        '    "SMY"\n'
        "   ]\n"
        "  },\n"
        '  "ALB": {\n'
        '   "name": "Albania",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "GRE",\n'
        '    "SER",\n'
        '    "TRI"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ADR",\n'
        '    "GRE",\n'
        '    "ION",\n'
        '    "TRI"\n'
        "   ]\n"
        "  },\n"
        '  "ANK": {\n'
        '   "name": "Ankara",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "ARM",\n'
        '    "CON",\n'
        '    "SMY"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ARM",\n'
        '    "BLA",\n'
        '    "CON"\n'
        "   ]\n"
        "  },\n"
        '  "APU": {\n'
        '   "name": "Apulia",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "NAP",\n'
        '    "ROM",\n'
        '    "VEN"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ADR",\n'
        '    "ION",\n'
        '    "NAP",\n'
        '    "VEN"\n'
        "   ]\n"
        "  },\n"
        '  "ARM": {\n'
        '   "name": "Armenia",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "ANK",\n'
        '    "SEV",\n'
        '    "SMY",\n'
        '    "SYR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ANK",\n'
        '    "BLA",\n'
        '    "SEV"\n'
        "   ]\n"
        "  },\n"
        '  "BAL": {\n'
        '   "name": "Baltic Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Baltic"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BER",\n'
        '    "BOT",\n'
        '    "DEN",\n'
        '    "KIE",\n'
        '    "LVN",\n'
        '    "PRU",\n'
        '    "SWE"\n'
        "   ]\n"
        "  },\n"
        '  "BAR": {\n'
        '   "name": "Barents Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Barents"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "NWG",\n'
        '    "NWY",\n'
        '    "STP/NC"\n'
        "   ]\n"
        "  },\n"
        '  "BEL": {\n'
        '   "name": "Belgium",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "BUR",\n'
        '    "HOL",\n'
        '    "PIC",\n'
        '    "RUH"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ENG",\n'
        '    "HOL",\n'
        '    "NTH",\n'
        '    "PIC"\n'
        "   ]\n"
        "  },\n"
        '  "BER": {\n'
        '   "name": "Berlin",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "KIE",\n'
        '    "MUN",\n'
        '    "PRU",\n'
        '    "SIL"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "KIE",\n'
        '    "PRU"\n'
        "   ]\n"
        "  },\n"
        '  "BLA": {\n'
        '   "name": "Black Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Black"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ANK",\n'
        '    "ARM",\n'
        '    "BUL/EC",\n'
        '    "CON",\n'
        '    "RUM",\n'
        '    "SEV"\n'
        "   ]\n"
        "  },\n"
        '  "BOH": {\n'
        '   "name": "Bohemia",\n'
        '   "kind": "land",\n'
        '   "army": [\n'
        '    "GAL",\n'
        '    "MUN",\n'
        '    "SIL",\n'
        '    "TYR",\n'
        '    "VIE"\n'
        "   ]\n"
        "  },\n"
        '  "BOT": {\n'
        '   "sort_name": "Bothnia, Gulf of",\n'
        '   "name": "Gulf of Bothnia",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "GoB",\n'
        '    "Bothnia",\n'
        '    "Bothnian Gulf"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "FIN",\n'
        '    "LVN",\n'
        '    "STP/SC",\n'
        '    "SWE"\n'
        "   ]\n"
        "  },\n"
        '  "BRE": {\n'
        '   "name": "Brest",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "GAS",\n'
        '    "PAR",\n'
        '    "PIC"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ENG",\n'
        '    "GAS",\n'
        '    "MAO",\n'
        '    "PIC"\n'
        "   ]\n"
        "  },\n"
        '  "BUD": {\n'
        '   "name": "Budapest",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "GAL",\n'
        '    "RUM",\n'
        '    "SER",\n'
        '    "TRI",\n'
        '    "VIE"\n'
        "   ]\n"
        "  },\n"
        '  "BUL": {\n'
        '   "name": "Bulgaria",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Bulg"\n'
        "   ],\n"
        '   "army": [\n'
        '    "CON",\n'
        '    "GRE",\n'
        '    "RUM",\n'
        '    "SER"\n'
        "   ],\n"
        '   "default_coast": "EC",\n'
        '   "coasts": {\n'
        '    "EC": {\n'
        '     "fleet": [\n'
        '      "BLA",\n'
        '      "CON",\n'
        '      "RUM"\n'
        "     ]\n"
        "    },\n"
        '    "SC": {\n'
        '     "fleet": [\n'
        '      "AEG",\n'
        '      "CON",\n'
        '      "GRE"\n'
        "     ]\n"
        "    }\n"
        "   }\n"
        "  },\n"
        '  "BUR": {\n'
        '   "name": "Burgundy",\n'
        '   "kind": "land",\n'
        '   "aliases": [\n'
        '    "Burg"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BEL",\n'
        '    "GAS",\n'
        '    "MAR",\n'
        '    "MUN",\n'
        '    "PAR",\n'
        '    "PIC",\n'
        '    "RUH"\n'
        "   ]\n"
        "  },\n"
        '  "CLY": {\n'
        '   "name": "Clyde",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "EDI",\n'
        '    "LVP"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "EDI",\n'
        '    "LVP",\n'
        '    "NAO",\n'
        '    "NWG"\n'
        "   ]\n"
        "  },\n"
        '  "CON": {\n'
        '   "name": "Constantinople",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Const",\n'
        '    "Istanbul"\n'
        "   ],\n"
        '   "army": [\n'
        '    "ANK",\n'
        '    "BUL",\n'
        '    "SMY"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "AEG",\n'
        '    "ANK",\n'
        '    "BLA",\n'
        '    "BUL/EC",\n'
        '    "BUL/SC",\n'
        '    "SMY"\n'
        "   ]\n"
        "  },\n"
        '  "DEN": {\n'
        '   "name": "Denmark",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "KIE",\n'
        '    "SWE"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "HEL",\n'
        '    "KIE",\n'
        '    "NTH",\n'
        '    "SKA",\n'
        '    "SWE"\n'
        "   ]\n"
        "  },\n"
        '  "EAS": {\n'
        '   "name": "Eastern Mediterranean",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "East",\n'
        '    "Eastern Med",\n'
        '    "East Med",\n'
        '    "EMed",\n'
        '    "Eastern Mediterranean Sea"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "AEG",\n'
        '    "ION",\n'
        '    "SMY",\n'
        '    "SYR"\n'
        "   ]\n"
        "  },\n"
        '  "EDI": {\n'
        '   "name": "Edinburgh",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Edinburg",\n'
        '    "Ed"\n'
        "   ],\n"
        '   "army": [\n'
        '    "CLY",\n'
        '    "LVP",\n'
        '    "YOR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "CLY",\n'
        '    "NTH",\n'
        '    "NWG",\n'
        '    "YOR"\n'
        "   ]\n"
        "  },\n"
        '  "ENG": {\n'
        '   "name": "English Channel",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Ech",\n'
        '    "Channel"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BEL",\n'
        '    "BRE",\n'
        '    "IRI",\n'
        '    "LON",\n'
        '    "MAO",\n'
        '    "NTH",\n'
        '    "PIC",\n'
        '    "WAL"\n'
        "   ]\n"
        "  },\n"
        '  "FIN": {\n'
        '   "name": "Finland",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "NWY",\n'
        '    "STP",\n'
        '    "SWE"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BOT",\n'
        '    "STP/SC",\n'
        '    "SWE"\n'
        "   ]\n"
        "  },\n"
        '  "GAL": {\n'
        '   "name": "Galicia",\n'
        '   "kind": "land",\n'
        '   "army": [\n'
        '    "BOH",\n'
        '    "BUD",\n'
        '    "RUM",\n'
        '    "SIL",\n'
        '    "UKR",\n'
        '    "VIE",\n'
        '    "WAR"\n'
        "   ]\n"
        "  },\n"
        '  "GAS": {\n'
        '   "name": "Gascony",\n'
        '   "kind": "coast",\n'
        '   "aliases": [\n'
        '    "Gasc"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BRE",\n'
        '    "BUR",\n'
        '    "MAR",\n'
        '    "PAR",\n'
        '    "SPA"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BRE",\n'
        '    "MAO",\n'
        '    "SPA/NC"\n'
        "   ]\n"
        "  },\n"
        '  "GRE": {\n'
        '   "name": "Greece",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "ALB",\n'
        '    "BUL",\n'
        '    "SER"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "AEG",\n'
        '    "ALB",\n'
        '    "BUL/SC",\n'
        '    "ION"\n'
        "   ]\n"
        "  },\n"
        '  "HEL": {\n'
        '   "name": "Heligoland Bight",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Helgoland Bight",\n'
        '    "Heligoland",\n'
        '    "Helgoland",\n'
        '    "Helgo",\n'
        '    "Helg"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "DEN",\n'
        '    "HOL",\n'
        '    "KIE",\n'
        '    "NTH"\n'
        "   ]\n"
        "  },\n"
        '  "HOL": {\n'
        '   "name": "Holland",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Netherlands"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BEL",\n'
        '    "KIE",\n'
        '    "RUH"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BEL",\n'
        '    "HEL",\n'
        '    "KIE",\n'
        '    "NTH"\n'
        "   ]\n"
        "  },\n"
        '  "ION": {\n'
        '   "name": "Ionian Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Ionian"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ADR",\n'
        '    "AEG",\n'
        '    "ALB",\n'
        '    "APU",\n'
        '    "EAS",\n'
        '    "GRE",\n'
        '    "NAP",\n'
        '    "TUN",\n'
        '    "TYS"\n'
        "   ]\n"
        "  },\n"
        '  "IRI": {\n'
        '   "name": "Irish Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Irish"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ENG",\n'
        '    "LVP",\n'
        '    "MAO",\n'
        '    "NAO",\n'
        '    "WAL"\n'
        "   ]\n"
        "  },\n"
        '  "KIE": {\n'
        '   "name": "Kiel",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Kiel"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BER",\n'
        '    "DEN",\n'
        '    "HOL",\n'
        '    "MUN",\n'
        '    "RUH"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "BER",\n'
        '    "DEN",\n'
        '    "HEL",\n'
        '    "HOL"\n'
        "   ]\n"
        "  },\n"
        '  "LON": {\n'
        '   "name": "London",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "WAL",\n'
        '    "YOR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ENG",\n'
        '    "NTH",\n'
        '    "WAL",\n'
        '    "YOR"\n'
        "   ]\n"
        "  },\n"
        '  "LVN": {\n'
        '   "name": "Livonia",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "MOS",\n'
        '    "PRU",\n'
        '    "STP",\n'
        '    "WAR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "BOT",\n'
        '    "PRU",\n'
        '    "STP/SC"\n'
        "   ]\n"
        "  },\n"
        '  "LVP": {\n'
        '   "name": "Liverpool",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Liv",\n'
        '    "Lpl"\n'
        "   ],\n"
        '   "army": [\n'
        '    "CLY",\n'
        '    "EDI",\n'
        '    "WAL",\n'
        '    "YOR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "CLY",\n'
        '    "IRI",\n'
        '    "NAO",\n'
        '    "WAL"\n'
        "   ]\n"
        "  },\n"
        '  "LYO": {\n'
        '   "sort_name": "Lyon, Gulf of",\n'
        '   "name": "Gulf of Lyon",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "GoL",\n'
        '    "Gulf of Lions",\n'
        '    "Gulf of Lyons",\n'
        '    "Lyon",\n'
        '    "Lyons"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "MAR",\n'
        '    "PIE",\n'
        '    "SPA/SC",\n'
        '    "TUS",\n'
        '    "TYS",\n'
        '    "WES"\n'
        "   ]\n"
        "  },\n"
        '  "MAO": {\n'
        '   "name": "Mid-Atlantic Ocean",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "MAt",\n'
        '    "Mid",\n'
        '    "Mid Atlantic",\n'
        '    "Mid Atlantic Ocean"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BRE",\n'
        '    "ENG",\n'
        '    "GAS",\n'
        '    "IRI",\n'
        '    "NAF",\n'
        '    "NAO",\n'
        '    "POR",\n'
        '    "SPA/NC",\n'
        '    "SPA/SC",\n'
        '    "WES"\n'
        "   ]\n"
        "  },\n"
        '  "MAR": {\n'
        '   "name": "Marseilles",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Marseille",\n'
        '    "Mars"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BUR",\n'
        '    "GAS",\n'
        '    "PIE",\n'
        '    "SPA"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "LYO",\n'
        '    "PIE",\n'
        '    "SPA/SC"\n'
        "   ]\n"
        "  },\n"
        '  "MOS": {\n'
        '   "name": "Moscow",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "LVN",\n'
        '    "SEV",\n'
        '    "STP",\n'
        '    "UKR",\n'
        '    "WAR"\n'
        "   ]\n"
        "  },\n"
        '  "MUN": {\n'
        '   "name": "Munich",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Munchen",\n'
        '    "M\\u00fcnchen"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BER",\n'
        '    "BOH",\n'
        '    "BUR",\n'
        '    "KIE",\n'
        '    "RUH",\n'
        '    "SIL",\n'
        '    "TYR"\n'
        "   ]\n"
        "  },\n"
        '  "NAF": {\n'
        '   "name": "North Africa",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "TUN"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "MAO",\n'
        '    "TUN",\n'
        '    "WES"\n'
        "   ]\n"
        "  },\n"
        '  "NAO": {\n'
        '   "name": "North Atlantic Ocean",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "NAt",\n'
        '    "North Atlantic"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "CLY",\n'
        '    "IRI",\n'
        '    "LVP",\n'
        '    "MAO",\n'
        '    "NWG"\n'
        "   ]\n"
        "  },\n"
        '  "NAP": {\n'
        '   "name": "Naples",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Napoli"\n'
        "   ],\n"
        '   "army": [\n'
        '    "APU",\n'
        '    "ROM"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "APU",\n'
        '    "ION",\n'
        '    "ROM",\n'
        '    "TYS"\n'
        "   ]\n"
        "  },\n"
        '  "NTH": {\n'
        '   "name": "North Sea",\n'
        '   "kind": "sea",\n'
        '   "fleet": [\n'
        '    "BEL",\n'
        '    "DEN",\n'
        '    "EDI",\n'
        '    "ENG",\n'
        '    "HEL",\n'
        '    "HOL",\n'
        '    "LON",\n'
        '    "NWG",\n'
        '    "NWY",\n'
        '    "SKA",\n'
        '    "YOR"\n'
        "   ]\n"
        "  },\n"
        '  "NWG": {\n'
        '   "name": "Norwegian Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Nrg",\n'
        '    "Norwegian"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAR",\n'
        '    "CLY",\n'
        '    "EDI",\n'
        '    "NAO",\n'
        '    "NTH",\n'
        '    "NWY"\n'
        "   ]\n"
        "  },\n"
        '  "NWY": {\n'
        '   "name": "Norway",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Norw"\n'
        "   ],\n"
        '   "army": [\n'
        '    "FIN",\n'
        '    "STP",\n'
        '    "SWE"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAR",\n'
        '    "NTH",\n'
        '    "NWG",\n'
        '    "SKA",\n'
        '    "STP/NC",\n'
        '    "SWE"\n'
        "   ]\n"
        "  },\n"
        '  "PAR": {\n'
        '   "name": "Paris",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "BRE",\n'
        '    "BUR",\n'
        '    "GAS",\n'
        '    "PIC"\n'
        "   ]\n"
        "  },\n"
        '  "PIC": {\n'
        '   "name": "Picardy",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "BEL",\n'
        '    "BRE",\n'
        '    "BUR",\n'
        '    "PAR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BEL",\n'
        '    "BRE",\n'
        '    "ENG"\n'
        "   ]\n"
        "  },\n"
        '  "PIE": {\n'
        '   "name": "Piedmont",\n'
        '   "kind": "coast",\n'
        '   "aliases": [\n'
        '    "Pied"\n'
        "   ],\n"
        '   "army": [\n'
        '    "MAR",\n'
        '    "TUS",\n'
        '    "TYR",\n'
        '    "VEN"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "LYO",\n'
        '    "MAR",\n'
        '    "TUS"\n'
        "   ]\n"
        "  },\n"
        '  "POR": {\n'
        '   "name": "Portugal",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Port"\n'
        "   ],\n"
        '   "army": [\n'
        '    "SPA"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "MAO",\n'
        '    "SPA/NC",\n'
        '    "SPA/SC"\n'
        "   ]\n"
        "  },\n"
        '  "PRU": {\n'
        '   "name": "Prussia",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "BER",\n'
        '    "LVN",\n'
        '    "SIL",\n'
        '    "WAR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "BER",\n'
        '    "LVN"\n'
        "   ]\n"
        "  },\n"
        '  "ROM": {\n'
        '   "name": "Rome",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Rome",\n'
        '    "Roma"\n'
        "   ],\n"
        '   "army": [\n'
        '    "APU",\n'
        '    "NAP",\n'
        '    "TUS",\n'
        '    "VEN"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "NAP",\n'
        '    "TUS",\n'
        '    "TYS"\n'
        "   ]\n"
        "  },\n"
        '  "RUH": {\n'
        '   "name": "Ruhr",\n'
        '   "kind": "land",\n'
        '   "aliases": [\n'
        '    "Ruhr"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BEL",\n'
        '    "BUR",\n'
        '    "HOL",\n'
        '    "KIE",\n'
        '    "MUN"\n'
        "   ]\n"
        "  },\n"
        '  "RUM": {\n'
        '   "name": "Rumania",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Romania",\n'
        '    "Roumania"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BUD",\n'
        '    "BUL",\n'
        '    "GAL",\n'
        '    "SER",\n'
        '    "SEV",\n'
        '    "UKR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BLA",\n'
        '    "BUL/EC",\n'
        '    "SEV"\n'
        "   ]\n"
        "  },\n"
        '  "SER": {\n'
        '   "name": "Serbia",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "ALB",\n'
        '    "BUD",\n'
        '    "BUL",\n'
        '    "GRE",\n'
        '    "RUM",\n'
        '    "TRI"\n'
        "   ]\n"
        "  },\n"
        '  "SEV": {\n'
        '   "name": "Sevastopol",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Sebastopol",\n'
        '    "Sevastapol"\n'
        "   ],\n"
        '   "army": [\n'
        '    "ARM",\n'
        '    "MOS",\n'
        '    "RUM",\n'
        '    "UKR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ARM",\n'
        '    "BLA",\n'
        '    "RUM"\n'
        "   ]\n"
        "  },\n"
        '  "SIL": {\n'
        '   "name": "Silesia",\n'
        '   "kind": "land",\n'
        '   "army": [\n'
        '    "BER",\n'
        '    "BOH",\n'
        '    "GAL",\n'
        '    "MUN",\n'
        '    "PRU",\n'
        '    "WAR"\n'
        "   ]\n"
        "  },\n"
        '  "SKA": {\n'
        '   "name": "Skagerrak",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Skag",\n'
        '    "Skagerak",\n'
        '    "Skaggerak",\n'
        '    "Skagerrack"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "DEN",\n'
        '    "NTH",\n'
        '    "NWY",\n'
        '    "SWE"\n'
        "   ]\n"
        "  },\n"
        '  "SMY": {\n'
        '   "name": "Smyrna",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Izmir"\n'
        "   ],\n"
        '   "army": [\n'
        '    "ANK",\n'
        '    "ARM",\n'
        '    "CON",\n'
        '    "SYR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "AEG",\n'
        '    "CON",\n'
        '    "EAS",\n'
        '    "SYR"\n'
        "   ]\n"
        "  },\n"
        '  "SPA": {\n'
        '   "name": "Spain",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Spn"\n'
        "   ],\n"
        '   "army": [\n'
        '    "GAS",\n'
        '    "MAR",\n'
        '    "POR"\n'
        "   ],\n"
        '   "default_coast": "SC",\n'
        '   "coasts": {\n'
        '    "NC": {\n'
        '     "fleet": [\n'
        '      "GAS",\n'
        '      "MAO",\n'
        '      "POR"\n'
        "     ]\n"
        "    },\n"
        '    "SC": {\n'
        '     "fleet": [\n'
        '      "LYO",\n'
        '      "MAO",\n'
        '      "MAR",\n'
        '      "POR",\n'
        '      "WES"\n'
        "     ]\n"
        "    }\n"
        "   }\n"
        "  },\n"
        '  "STP": {\n'
        '   "sort_name": "Saint Petersburg",\n'
        '   "name": "St Petersburg",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "St. Petersburg",\n'
        '    "StP",\n'
        '    "Saint Petersburg",\n'
        '    "Petersburg",\n'
        '    "StPete"\n'
        "   ],\n"
        '   "army": [\n'
        '    "FIN",\n'
        '    "LVN",\n'
        '    "MOS",\n'
        '    "NWY"\n'
        "   ],\n"
        '   "default_coast": "NC",\n'
        '   "coasts": {\n'
        '    "NC": {\n'
        '     "fleet": [\n'
        '      "BAR",\n'
        '      "NWY"\n'
        "     ]\n"
        "    },\n"
        '    "SC": {\n'
        '     "fleet": [\n'
        '      "BOT",\n'
        '      "FIN",\n'
        '      "LVN"\n'
        "     ]\n"
        "    }\n"
        "   }\n"
        "  },\n"
        '  "SWE": {\n'
        '   "name": "Sweden",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "DEN",\n'
        '    "FIN",\n'
        '    "NWY"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "BAL",\n'
        '    "BOT",\n'
        '    "DEN",\n'
        '    "FIN",\n'
        '    "NWY",\n'
        '    "SKA"\n'
        "   ]\n"
        "  },\n"
        '  "SWI": {\n'
        '   "name": "Switzerland",\n'
        '   "kind": "impassable"\n'
        "  },\n"
        '  "SYR": {\n'
        '   "name": "Syria",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "ARM",\n'
        '    "SMY"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "EAS",\n'
        '    "SMY"\n'
        "   ]\n"
        "  },\n"
        '  "TRI": {\n'
        '   "name": "Trieste",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Triest"\n'
        "   ],\n"
        '   "army": [\n'
        '    "ALB",\n'
        '    "BUD",\n'
        '    "SER",\n'
        '    "TYR",\n'
        '    "VEN",\n'
        '    "VIE"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ADR",\n'
        '    "ALB",\n'
        '    "VEN"\n'
        "   ]\n"
        "  },\n"
        '  "TUN": {\n'
        '   "name": "Tunis",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Tunisia"\n'
        "   ],\n"
        '   "army": [\n'
        '    "NAF"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ION",\n'
        '    "NAF",\n'
        '    "TYS",\n'
        '    "WES"\n'
        "   ]\n"
        "  },\n"
        '  "TUS": {\n'
        '   "name": "Tuscany",\n'
        '   "kind": "coast",\n'
        '   "aliases": [\n'
        '    "Tusc"\n'
        "   ],\n"
        '   "army": [\n'
        '    "PIE",\n'
        '    "ROM",\n'
        '    "VEN"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "LYO",\n'
        '    "PIE",\n'
        '    "ROM",\n'
        '    "TYS"\n'
        "   ]\n"
        "  },\n"
        '  "TYR": {\n'
        '   "name": "Tyrolia",\n'
        '   "kind": "land",\n'
        '   "aliases": [\n'
        '    "Tyl",\n'
        '    "Tyrol"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BOH",\n'
        '    "MUN",\n'
        '    "PIE",\n'
        '    "TRI",\n'
        '    "VEN",\n'
        '    "VIE"\n'
        "   ]\n"
        "  },\n"
        '  "TYS": {\n'
        '   "name": "Tyrrhenian Sea",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "Tyn",\n'
        '    "Tyrr",\n'
        '    "Tyrrhenian"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ION",\n'
        '    "LYO",\n'
        '    "NAP",\n'
        '    "ROM",\n'
        '    "TUN",\n'
        '    "TUS",\n'
        '    "WES"\n'
        "   ]\n"
        "  },\n"
        '  "UKR": {\n'
        '   "name": "Ukraine",\n'
        '   "kind": "land",\n'
        '   "army": [\n'
        '    "GAL",\n'
        '    "MOS",\n'
        '    "RUM",\n'
        '    "SEV",\n'
        '    "WAR"\n'
        "   ]\n"
        "  },\n"
        '  "VEN": {\n'
        '   "name": "Venice",\n'
        '   "kind": "coast",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Venezia"\n'
        "   ],\n"
        '   "army": [\n'
        '    "APU",\n'
        '    "PIE",\n'
        '    "ROM",\n'
        '    "TRI",\n'
        '    "TUS",\n'
        '    "TYR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ADR",\n'
        '    "APU",\n'
        '    "TRI"\n'
        "   ]\n"
        "  },\n"
        '  "VIE": {\n'
        '   "name": "Vienna",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "aliases": [\n'
        '    "Wien"\n'
        "   ],\n"
        '   "army": [\n'
        '    "BOH",\n'
        '    "BUD",\n'
        '    "GAL",\n'
        '    "TRI",\n'
        '    "TYR"\n'
        "   ]\n"
        "  },\n"
        '  "WAL": {\n'
        '   "name": "Wales",\n'
        '   "kind": "coast",\n'
        '   "army": [\n'
        '    "LON",\n'
        '    "LVP",\n'
        '    "YOR"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "ENG",\n'
        '    "IRI",\n'
        '    "LON",\n'
        '    "LVP"\n'
        "   ]\n"
        "  },\n"
        '  "WAR": {\n'
        '   "name": "Warsaw",\n'
        '   "kind": "land",\n'
        '   "supply_center": true,\n'
        '   "army": [\n'
        '    "GAL",\n'
        '    "LVN",\n'
        '    "MOS",\n'
        '    "PRU",\n'
        '    "SIL",\n'
        '    "UKR"\n'
        "   ]\n"
        "  },\n"
        '  "WES": {\n'
        '   "name": "Western Mediterranean",\n'
        '   "kind": "sea",\n'
        '   "aliases": [\n'
        '    "West",\n'
        '    "Western Med",\n'
        '    "West Med",\n'
        '    "WMed",\n'
        '    "Western Mediterranean Sea"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "LYO",\n'
        '    "MAO",\n'
        '    "NAF",\n'
        '    "SPA/SC",\n'
        '    "TUN",\n'
        '    "TYS"\n'
        "   ]\n"
        "  },\n"
        '  "YOR": {\n'
        '   "name": "Yorkshire",\n'
        '   "kind": "coast",\n'
        '   "aliases": [\n'
        '    "York"\n'
        "   ],\n"
        '   "army": [\n'
        '    "EDI",\n'
        '    "LON",\n'
        '    "LVP",\n'
        '    "WAL"\n'
        "   ],\n"
        '   "fleet": [\n'
        '    "EDI",\n'
        '    "LON",\n'
        '    "NTH"\n'
        "   ]\n"
        "  }\n"
        " }\n"
        "}"
    ),
}
