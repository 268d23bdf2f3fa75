/**
 * Curated delivery areas shipped with the project (operators add live ones at
 * runtime). Coordinates are approximate town/neighbourhood centres (WGS84),
 * good to a km or two: they label areas, they never drive pricing.
 * Ids are stable slugs: never rename one, partners store them.
 */
import type { Area, Region } from './areas.ts';

function region(id: string, name: string, capital: string, lat: number, lng: number): Region {
  return Object.freeze({ id, name, capital, centroid: Object.freeze({ lat, lng }) });
}

/** The 16 regions in force since the 2018 referendum (6 new regions created in 2019). */
export const GHANA_REGIONS: readonly Region[] = Object.freeze([
  region('reg_greater_accra', 'Greater Accra', 'Accra', 5.79, 0.03),
  region('reg_ashanti', 'Ashanti', 'Kumasi', 6.75, -1.52),
  region('reg_western', 'Western', 'Sekondi-Takoradi', 5.3, -2.15),
  region('reg_western_north', 'Western North', 'Sefwi Wiawso', 6.25, -2.6),
  region('reg_central', 'Central', 'Cape Coast', 5.6, -1.1),
  region('reg_eastern', 'Eastern', 'Koforidua', 6.4, -0.45),
  region('reg_volta', 'Volta', 'Ho', 6.55, 0.55),
  region('reg_oti', 'Oti', 'Dambai', 8.0, 0.3),
  region('reg_northern', 'Northern', 'Tamale', 9.3, -0.25),
  region('reg_savannah', 'Savannah', 'Damongo', 9.1, -1.8),
  region('reg_north_east', 'North East', 'Nalerigu', 10.4, -0.4),
  region('reg_upper_east', 'Upper East', 'Bolgatanga', 10.75, -0.8),
  region('reg_upper_west', 'Upper West', 'Wa', 10.3, -2.2),
  region('reg_bono', 'Bono', 'Sunyani', 7.5, -2.5),
  region('reg_bono_east', 'Bono East', 'Techiman', 7.8, -1.3),
  region('reg_ahafo', 'Ahafo', 'Goaso', 6.9, -2.45),
]);

type Row = readonly [
  id: string,
  name: string,
  region: string,
  zone: string,
  lat: number,
  lng: number,
];

// Compact rows keep the list reviewable; mapped to Area objects below.
const ROWS: readonly Row[] = [
  // Greater Accra: Accra
  ['loc_accra_central', 'Accra Central', 'Greater Accra', 'Accra Metro', 5.549, -0.205],
  ['loc_accra_jamestown', 'Jamestown', 'Greater Accra', 'Accra Metro', 5.533, -0.212],
  ['loc_accra_korle_bu', 'Korle Bu', 'Greater Accra', 'Accra Metro', 5.537, -0.227],
  ['loc_accra_ridge', 'Ridge', 'Greater Accra', 'Accra Metro', 5.562, -0.196],
  ['loc_accra_osu', 'Osu', 'Greater Accra', 'Accra Metro', 5.556, -0.179],
  ['loc_accra_labone', 'Labone', 'Greater Accra', 'Accra Metro', 5.565, -0.17],
  ['loc_accra_cantonments', 'Cantonments', 'Greater Accra', 'Accra Metro', 5.578, -0.17],
  ['loc_accra_labadi', 'La (Labadi)', 'Greater Accra', 'Accra Metro', 5.56, -0.145],
  [
    'loc_accra_airport_residential',
    'Airport Residential',
    'Greater Accra',
    'Accra Metro',
    5.603,
    -0.178,
  ],
  ['loc_accra_dzorwulu', 'Dzorwulu', 'Greater Accra', 'Accra Metro', 5.61, -0.2],
  ['loc_accra_east_legon', 'East Legon', 'Greater Accra', 'Accra Metro', 5.635, -0.161],
  ['loc_accra_legon', 'Legon', 'Greater Accra', 'Accra Metro', 5.651, -0.187],
  ['loc_accra_madina', 'Madina', 'Greater Accra', 'Accra Metro', 5.669, -0.166],
  ['loc_accra_adenta', 'Adenta', 'Greater Accra', 'Accra Metro', 5.706, -0.166],
  ['loc_accra_spintex', 'Spintex', 'Greater Accra', 'Accra Metro', 5.633, -0.11],
  ['loc_accra_teshie', 'Teshie', 'Greater Accra', 'Accra Metro', 5.583, -0.107],
  ['loc_accra_nungua', 'Nungua', 'Greater Accra', 'Accra Metro', 5.601, -0.077],
  ['loc_accra_achimota', 'Achimota', 'Greater Accra', 'Accra Metro', 5.623, -0.225],
  ['loc_accra_tesano', 'Tesano', 'Greater Accra', 'Accra Metro', 5.595, -0.237],
  ['loc_accra_kokomlemle', 'Kokomlemle', 'Greater Accra', 'Accra Metro', 5.575, -0.21],
  ['loc_accra_kaneshie', 'Kaneshie', 'Greater Accra', 'Accra Metro', 5.565, -0.235],
  ['loc_accra_abeka', 'Abeka', 'Greater Accra', 'Accra Metro', 5.59, -0.24],
  ['loc_accra_lapaz', 'Lapaz', 'Greater Accra', 'Accra Metro', 5.606, -0.252],
  ['loc_accra_dansoman', 'Dansoman', 'Greater Accra', 'Accra Metro', 5.55, -0.265],
  ['loc_accra_mallam', 'Mallam', 'Greater Accra', 'Accra Metro', 5.57, -0.285],
  ['loc_accra_dome', 'Dome', 'Greater Accra', 'Accra Metro', 5.65, -0.236],
  ['loc_accra_haatso', 'Haatso', 'Greater Accra', 'Accra Metro', 5.676, -0.201],
  ['loc_accra_taifa', 'Taifa', 'Greater Accra', 'Accra Metro', 5.66, -0.25],
  ['loc_accra_ofankor', 'Ofankor', 'Greater Accra', 'Accra Metro', 5.67, -0.27],
  ['loc_accra_pokuase', 'Pokuase', 'Greater Accra', 'Accra Metro', 5.695, -0.285],
  ['loc_accra_amasaman', 'Amasaman', 'Greater Accra', 'Accra Metro', 5.702, -0.3],
  ['loc_accra_weija', 'Weija', 'Greater Accra', 'Accra Metro', 5.561, -0.337],
  ['loc_accra_oyarifa', 'Oyarifa', 'Greater Accra', 'Accra Metro', 5.75, -0.17],
  ['loc_dodowa', 'Dodowa', 'Greater Accra', 'Dodowa', 5.882, -0.098],
  // Greater Accra: Tema
  ['loc_tema_community_1', 'Tema Community 1', 'Greater Accra', 'Tema Metro', 5.64, 0.005],
  ['loc_tema_community_2', 'Tema Community 2', 'Greater Accra', 'Tema Metro', 5.646, -0.006],
  ['loc_tema_community_5', 'Tema Community 5', 'Greater Accra', 'Tema Metro', 5.647, 0.012],
  ['loc_tema_community_7', 'Tema Community 7', 'Greater Accra', 'Tema Metro', 5.66, -0.005],
  ['loc_tema_community_11', 'Tema Community 11', 'Greater Accra', 'Tema Metro', 5.659, -0.02],
  ['loc_tema_community_18', 'Tema Community 18', 'Greater Accra', 'Tema Metro', 5.695, -0.015],
  ['loc_tema_community_25', 'Tema Community 25', 'Greater Accra', 'Tema Metro', 5.74, -0.005],
  ['loc_tema_sakumono', 'Sakumono', 'Greater Accra', 'Tema Metro', 5.618, -0.053],
  ['loc_tema_lashibi', 'Lashibi', 'Greater Accra', 'Tema Metro', 5.638, -0.065],
  ['loc_tema_ashaiman', 'Ashaiman', 'Greater Accra', 'Tema Metro', 5.693, -0.033],
  ['loc_tema_kpone', 'Kpone', 'Greater Accra', 'Tema Metro', 5.693, 0.056],
  ['loc_prampram', 'Prampram', 'Greater Accra', 'Prampram', 5.71, 0.113],
  ['loc_ada_foah', 'Ada Foah', 'Greater Accra', 'Ada', 5.79, 0.63],
  // Ashanti
  ['loc_kumasi_adum', 'Adum', 'Ashanti', 'Kumasi Metro', 6.692, -1.623],
  ['loc_kumasi_kejetia', 'Kejetia', 'Ashanti', 'Kumasi Metro', 6.698, -1.624],
  ['loc_kumasi_asokwa', 'Asokwa', 'Ashanti', 'Kumasi Metro', 6.67, -1.6],
  ['loc_kumasi_bantama', 'Bantama', 'Ashanti', 'Kumasi Metro', 6.705, -1.637],
  ['loc_kumasi_suame', 'Suame', 'Ashanti', 'Kumasi Metro', 6.726, -1.628],
  ['loc_kumasi_tafo', 'Tafo', 'Ashanti', 'Kumasi Metro', 6.735, -1.61],
  ['loc_kumasi_santasi', 'Santasi', 'Ashanti', 'Kumasi Metro', 6.67, -1.65],
  ['loc_kumasi_ahodwo', 'Ahodwo', 'Ashanti', 'Kumasi Metro', 6.665, -1.62],
  ['loc_kumasi_ayigya', 'Ayigya', 'Ashanti', 'Kumasi Metro', 6.684, -1.58],
  ['loc_kumasi_knust', 'KNUST', 'Ashanti', 'Kumasi Metro', 6.673, -1.565],
  ['loc_ejisu', 'Ejisu', 'Ashanti', 'Ejisu', 6.724, -1.465],
  ['loc_obuasi', 'Obuasi', 'Ashanti', 'Obuasi', 6.206, -1.664],
  ['loc_konongo', 'Konongo', 'Ashanti', 'Konongo', 6.617, -1.216],
  ['loc_mampong_ashanti', 'Mampong', 'Ashanti', 'Mampong', 7.063, -1.4],
  ['loc_bekwai', 'Bekwai', 'Ashanti', 'Bekwai', 6.457, -1.58],
  ['loc_offinso', 'Offinso', 'Ashanti', 'Offinso', 6.935, -1.662],
  // Western
  ['loc_takoradi', 'Takoradi', 'Western', 'Sekondi-Takoradi', 4.895, -1.755],
  ['loc_sekondi', 'Sekondi', 'Western', 'Sekondi-Takoradi', 4.934, -1.714],
  ['loc_tarkwa', 'Tarkwa', 'Western', 'Tarkwa', 5.3, -1.995],
  ['loc_prestea', 'Prestea', 'Western', 'Prestea', 5.433, -2.143],
  ['loc_axim', 'Axim', 'Western', 'Axim', 4.869, -2.24],
  ['loc_elubo', 'Elubo', 'Western', 'Elubo', 5.287, -2.764],
  // Western North
  ['loc_sefwi_wiawso', 'Sefwi Wiawso', 'Western North', 'Sefwi Wiawso', 6.206, -2.489],
  ['loc_bibiani', 'Bibiani', 'Western North', 'Bibiani', 6.463, -2.319],
  ['loc_enchi', 'Enchi', 'Western North', 'Enchi', 5.817, -2.822],
  // Central
  ['loc_cape_coast', 'Cape Coast', 'Central', 'Cape Coast', 5.105, -1.247],
  ['loc_elmina', 'Elmina', 'Central', 'Elmina', 5.085, -1.35],
  ['loc_saltpond', 'Saltpond', 'Central', 'Saltpond', 5.209, -1.061],
  ['loc_mankessim', 'Mankessim', 'Central', 'Mankessim', 5.273, -1.015],
  ['loc_winneba', 'Winneba', 'Central', 'Winneba', 5.351, -0.623],
  ['loc_agona_swedru', 'Agona Swedru', 'Central', 'Agona Swedru', 5.534, -0.7],
  ['loc_kasoa', 'Kasoa', 'Central', 'Kasoa', 5.534, -0.417],
  ['loc_assin_fosu', 'Assin Fosu', 'Central', 'Assin Fosu', 5.7, -1.276],
  ['loc_dunkwa_on_offin', 'Dunkwa-on-Offin', 'Central', 'Dunkwa-on-Offin', 5.964, -1.781],
  // Eastern
  ['loc_koforidua', 'Koforidua', 'Eastern', 'Koforidua', 6.094, -0.259],
  ['loc_aburi', 'Aburi', 'Eastern', 'Aburi', 5.848, -0.175],
  ['loc_nsawam', 'Nsawam', 'Eastern', 'Nsawam', 5.808, -0.35],
  ['loc_suhum', 'Suhum', 'Eastern', 'Suhum', 6.04, -0.45],
  ['loc_kyebi', 'Kyebi', 'Eastern', 'Kyebi', 6.165, -0.553],
  ['loc_asamankese', 'Asamankese', 'Eastern', 'Asamankese', 5.86, -0.663],
  ['loc_akim_oda', 'Akim Oda', 'Eastern', 'Akim Oda', 5.926, -0.986],
  ['loc_nkawkaw', 'Nkawkaw', 'Eastern', 'Nkawkaw', 6.551, -0.766],
  ['loc_somanya', 'Somanya', 'Eastern', 'Somanya', 6.103, -0.015],
  ['loc_akosombo', 'Akosombo', 'Eastern', 'Akosombo', 6.3, 0.05],
  // Volta
  ['loc_ho', 'Ho', 'Volta', 'Ho', 6.601, 0.471],
  ['loc_hohoe', 'Hohoe', 'Volta', 'Hohoe', 7.152, 0.473],
  ['loc_kpando', 'Kpando', 'Volta', 'Kpando', 6.995, 0.293],
  ['loc_sogakope', 'Sogakope', 'Volta', 'Sogakope', 6.005, 0.593],
  ['loc_akatsi', 'Akatsi', 'Volta', 'Akatsi', 6.127, 0.803],
  ['loc_keta', 'Keta', 'Volta', 'Keta', 5.918, 0.987],
  ['loc_denu', 'Denu', 'Volta', 'Denu', 6.083, 1.136],
  ['loc_aflao', 'Aflao', 'Volta', 'Aflao', 6.117, 1.183],
  // Oti
  ['loc_dambai', 'Dambai', 'Oti', 'Dambai', 8.071, 0.18],
  ['loc_jasikan', 'Jasikan', 'Oti', 'Jasikan', 7.402, 0.473],
  ['loc_kete_krachi', 'Kete Krachi', 'Oti', 'Kete Krachi', 7.793, -0.048],
  ['loc_nkwanta', 'Nkwanta', 'Oti', 'Nkwanta', 8.265, 0.52],
  // Northern
  ['loc_tamale', 'Tamale', 'Northern', 'Tamale', 9.401, -0.839],
  ['loc_savelugu', 'Savelugu', 'Northern', 'Savelugu', 9.624, -0.825],
  ['loc_yendi', 'Yendi', 'Northern', 'Yendi', 9.443, -0.01],
  ['loc_bimbilla', 'Bimbilla', 'Northern', 'Bimbilla', 8.856, 0.058],
  // Savannah
  ['loc_damongo', 'Damongo', 'Savannah', 'Damongo', 9.083, -1.817],
  ['loc_bole', 'Bole', 'Savannah', 'Bole', 9.03, -2.485],
  ['loc_salaga', 'Salaga', 'Savannah', 'Salaga', 8.55, -0.52],
  ['loc_buipe', 'Buipe', 'Savannah', 'Buipe', 8.783, -1.467],
  // North East
  ['loc_nalerigu', 'Nalerigu', 'North East', 'Nalerigu', 10.527, -0.37],
  ['loc_gambaga', 'Gambaga', 'North East', 'Gambaga', 10.53, -0.44],
  ['loc_walewale', 'Walewale', 'North East', 'Walewale', 10.35, -0.8],
  // Upper East
  ['loc_bolgatanga', 'Bolgatanga', 'Upper East', 'Bolgatanga', 10.786, -0.851],
  ['loc_navrongo', 'Navrongo', 'Upper East', 'Navrongo', 10.895, -1.092],
  ['loc_bawku', 'Bawku', 'Upper East', 'Bawku', 11.061, -0.242],
  ['loc_zebilla', 'Zebilla', 'Upper East', 'Zebilla', 10.93, -0.48],
  // Upper West
  ['loc_wa', 'Wa', 'Upper West', 'Wa', 10.06, -2.51],
  ['loc_tumu', 'Tumu', 'Upper West', 'Tumu', 10.88, -1.983],
  ['loc_lawra', 'Lawra', 'Upper West', 'Lawra', 10.647, -2.899],
  ['loc_jirapa', 'Jirapa', 'Upper West', 'Jirapa', 10.53, -2.7],
  // Bono
  ['loc_sunyani', 'Sunyani', 'Bono', 'Sunyani', 7.339, -2.327],
  ['loc_berekum', 'Berekum', 'Bono', 'Berekum', 7.453, -2.586],
  ['loc_dormaa_ahenkro', 'Dormaa Ahenkro', 'Bono', 'Dormaa Ahenkro', 7.283, -2.883],
  ['loc_wenchi', 'Wenchi', 'Bono', 'Wenchi', 7.74, -2.104],
  // Bono East
  ['loc_techiman', 'Techiman', 'Bono East', 'Techiman', 7.586, -1.938],
  ['loc_kintampo', 'Kintampo', 'Bono East', 'Kintampo', 8.056, -1.731],
  ['loc_nkoranza', 'Nkoranza', 'Bono East', 'Nkoranza', 7.56, -1.7],
  ['loc_atebubu', 'Atebubu', 'Bono East', 'Atebubu', 7.75, -0.983],
  // Ahafo
  ['loc_goaso', 'Goaso', 'Ahafo', 'Goaso', 6.804, -2.517],
  ['loc_bechem', 'Bechem', 'Ahafo', 'Bechem', 7.09, -2.025],
  ['loc_kenyasi', 'Kenyasi', 'Ahafo', 'Kenyasi', 6.975, -2.383],
];

export const GHANA_AREAS: readonly Area[] = Object.freeze(
  ROWS.map(([id, name, regionName, zone, lat, lng]) =>
    Object.freeze({ id, name, region: regionName, zone, coordinates: Object.freeze({ lat, lng }) }),
  ),
);

/** Central Accra: the default pickup point of orders.estimate when none is given. */
export const CENTRAL_ACCRA = Object.freeze({ lat: 5.549, lng: -0.205 });
