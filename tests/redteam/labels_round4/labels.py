"""Hand labels for the 41 real files of red-team round 4, stored in files/ next to this module.

Same format as ../labels_round3/labels.py: LABELS[file] = list of (where, code, reason). For .py files
`where` is a line or an inclusive (first, last) range of lines of one statement, counted in the stored
copy (its two header lines included: original line + 2); for notebooks it is (cell, line-or-range),
cells counting code cells only, 1-based (the markdown cell naming the source, added first, is not one).
A list gives alternative places. Labels follow docs/rules.md (main e9b5bba), issues 17 and 20 and
/work/shared/FACTS.md, and were written before the checker ran on these files; sources.json names
each file's repository, path and commit. Runtime evidence: runtime_checks.py (2 logical CPU replicas).

DEBATABLE lists places where a finding would be defensible either way (README_round4.md, "Judgement
calls"); a finding there counts neither as matched nor as a false alarm.
"""

LABELS = {
    # --- tensorflow-3-public (DeepLearning.AI TF specialisation labs)
    'https-deeplearning-ai+tensorflow-3-public__Course_2_-_Custom_Training_loops,_Gradients_and_Distributed_Training__Week_4_-_Distribution_Strategy__C2_W4_Lab_1_basic-mirrored-strategy.ipynb': [
        ((8, (1, 3)), 'MG102', 'model.compile in its own cell after the `with strategy.scope():` cell that built the '
                               'model (c7): Keras 3 fails at fit ("Mixing different tf.distribute.Strategy objects", '
                               'FACTS.md)'),
        # Corrected after the first run (the checker is right by design): an optimizer or metric object
        # written inline in a compile(...) that MG102 reports is part of that finding (its fix moves the
        # whole call), mg103's `_created_here` says so; docs/rules.md does not. Was: ((8, 2), 'MG103').
    ],
    'https-deeplearning-ai+tensorflow-3-public__Course_2_-_Custom_Training_loops,_Gradients_and_Distributed_Training__Week_4_-_Distribution_Strategy__C2_W4_Lab_2_multi-GPU-mirrored-strategy.ipynb': [],
    'https-deeplearning-ai+tensorflow-3-public__Course_2_-_Custom_Training_loops,_Gradients_and_Distributed_Training__Week_4_-_Distribution_Strategy__C2_W4_Lab_3_using-TPU-strategy.ipynb': [
        ((5, 33), 'MG201', 'dataset.batch(BATCH_SIZE=128) (c4:3, a literal the comment calls per-core) handed to '
                           'experimental_distribute_dataset, which splits it; compute_average_loss divides by '
                           'BATCH_SIZE * num_replicas_in_sync, so the loss is N times too small (measured: '
                           'runtime_checks.py tpu_lab_batch, 0.5 instead of 1.0 on 2 replicas)'),
    ],
    'https-deeplearning-ai+tensorflow-3-public__Course_3_-_Advance_Computer_Vision__W1__ungraded_labs__C3_W1_Lab_3_Object_Localization.ipynb': [
        ((6, 42), 'MG201', 'validation dataset.batch(10000) given to fit(validation_data=) and evaluate of the '
                           'scope model (round 3 labelled the same shape, tensorflow/tpu c7:33)'),
    ],
    'https-deeplearning-ai+tensorflow-3-public__Course_4_-_Generative_Deep_Learning__W4__ungraded_labs__C4_W4_Lab_3_CelebA_GAN_Experiments.ipynb': [],
    # --- SaKi1309/ML_Notebooks (strategy from the author's own DeepSaki.utils.DetectHw(), tuple-unpacked)
    'SaKi1309+ML_Notebooks__GAN_distributed_training.ipynb': [
        ((7, 11), 'MG201', 'train .batch(CONFIG["GLOBAL_BATCH_SIZE"]) with GLOBAL_BATCH_SIZE = 256 (c1:3, dict '
                           'value) handed to experimental_distribute_dataset'),
        ((7, 12), 'MG201', 'test dataset, same batch, also distributed'),
        ((13, 7), 'MG102', 'ganModel.compile(...) after the `with strategy.scope():` block (c13:1-6) that built the '
                           'GAN; the custom compile calls super().compile()'),
        # Corrected after the first run, as in Lab 1: the two Adam(1e-4) objects written inline in this
        # compile(...) (c13:8, c13:9) are part of the MG102 finding. They do fail at runtime (measured:
        # runtime_checks.py gan_compile_outside, Keras 3 "Mixing different tf.distribute.Strategy objects"
        # in the first strategy.run step). Was: ((13, 8), 'MG103'), ((13, 9), 'MG103').
    ],
    # --- ageron/handson-ml3 chapter 19 notebook
    'ageron+handson-ml3__19_training_and_deploying_at_scale.ipynb': [
        ((65, (12, 13)), 'MG201', 'model.fit(..., batch_size=100) on arrays, the scope model (c65:5-9)'),
    ],
    # --- fchollet notebooks: tuner chapters, no tf.distribute in code (strategy-less controls)
    'fchollet+deep-learning-with-python-notebooks__chapter18_best-practices-for-the-real-world.ipynb': [],
    'fchollet+deep-learning-with-python-notebooks__second_edition__chapter13_best-practices-for-the-real-world.ipynb': [],
    # --- CosmoVicky/FL_Challenge (the TensorFlow multi-worker tutorial adapted to CIFAR)
    'CosmoVicky+FL_Challenge__Docker__main.py': [
        ((42, 43), 'MG404', 'multi_worker_model.fit(..., epochs=3) under MultiWorkerMirroredStrategy; the file '
                            'imports tensorflow only (Keras 3 on TF >= 2.16, which cannot fit under MWMS, '
                            'FACTS.md)'),
    ],
    'CosmoVicky+FL_Challenge__MultiWorkerClassification.ipynb': [],
    # --- Mayner0220/AICA (Kaggle-style Alzheimer MRI classifier, get_strategy / TPUStrategy)
    'Mayner0220+AICA__AICA_v1.ipynb': [],
    'Mayner0220+AICA__AICA_v2.ipynb': [],
    # --- joadiazcr/thesis
    'joadiazcr+thesis__rezaResearch__simplified_code.py': [],  # the strategy is commented out
    'joadiazcr+thesis__rezaResearch__test_strategy.py': [
        (10, 'MG000', 'Python 2 `print mirrored_strategy.num_replicas_in_sync` does not parse'),
    ],
    # --- wala/ML test data (the Strategy.run API example)
    'wala+ML__core__com.ibm.wala.cast.python.test__data__tf2_test_callbacks2.py': [],
    # --- google/uncertainty-baselines (custom loops, loss / num_replicas_in_sync, batches from flags)
    'google+uncertainty-baselines__baselines__cifar__deterministic.py': [],
    'google+uncertainty-baselines__baselines__cifar__dropout.py': [],
    'google+uncertainty-baselines__baselines__cifar__sngp.py': [
        (620, 'MG105', 'step_variable = tf.Variable(0) outside the scope, passed through train_step(iterator, '
                       'step) to strategy.run(step_fn, args=(..., step)) (contract: passed to strategy.run '
                       'args); measured harmless, only read: runtime_checks.py step_variable_in_run_args'),
    ],
    'google+uncertainty-baselines__baselines__imagenet__deterministic.py': [],
    'google+uncertainty-baselines__baselines__imagenet__efficientnet.py': [],
    'google+uncertainty-baselines__baselines__clinc_intent__deterministic.py': [],
    'google+uncertainty-baselines__baselines__drug_cardiotoxicity__deterministic.py': [],
    'google+uncertainty-baselines__baselines__diabetic_retinopathy_detection__deterministic.py': [],
    'google+uncertainty-baselines__baselines__diabetic_retinopathy_detection__utils__distribution_utils.py': [],
    # --- OpenNMT/OpenNMT-tf (trainer classes; optimizer handed in, iterations forced in the scope)
    'OpenNMT+OpenNMT-tf__opennmt__training.py': [],
    'OpenNMT+OpenNMT-tf__opennmt__runner.py': [],
    # --- kamalkraj/ALBERT-TF2.0 (tf-models BERT loop: mean * loss_factor = 1 / num_replicas_in_sync)
    'kamalkraj+ALBERT-TF2.0__model_training_utils.py': [],
    'kamalkraj+ALBERT-TF2.0__run_classifer.py': [],
    'kamalkraj+ALBERT-TF2.0__run_pretraining.py': [],  # core model rebuilt outside the scope for export
    'kamalkraj+ALBERT-TF2.0__run_squad.py': [],
    # --- google-research/deeplab2 (orbit trainer / evaluator classes given a strategy)
    'google-research+deeplab2__trainer__distribution_utils.py': [],
    'google-research+deeplab2__trainer__trainer.py': [],
    'google-research+deeplab2__trainer__evaluator.py': [],
    # --- sara-kassani/1000_Python_example (a collection: a MirroredStrategy snippet file, and copies of the
    # GoogleCloudPlatform practical-ml-vision-book chapter 3 TPU/GPU notebooks). Added after the first run on
    # the 38 others, labelled before the checker ran on these three.
    'sara-kassani+1000_Python_example__18_daily__mullti_distributed_gpus.py': [
        (30, 'MG000', '`model.fit(train_dataset, validation_data=val_dataset, ...)`: positional `...` after a '
                      'keyword argument does not parse'),
    ],
    'sara-kassani+1000_Python_example__books__Practical_Machine_Learning_for_Computer_Vision__03_image_models__03b_finetune_MOBILENETV2_flowers5.ipynb': [
        ((13, (48, 54)), 'MG102', 'model.compile(...) dedented out of the `with strategy.scope():` block (c13:1) '
                                  'that built the model and the AdamW optimizer: Keras 3 fails at fit (FACTS.md)'),
    ],
    'sara-kassani+1000_Python_example__books__Practical_Machine_Learning_for_Computer_Vision__03_image_models__03i_fromzero_XCEPTION_flowers104.ipynb': [
        ((10, (13, 18)), 'MG102', 'model.compile(optimizer="adam", ...) dedented out of the scope block (c10:1)'),
    ],
    # --- tensorflow/ecosystem
    'tensorflow+ecosystem__distribution_strategy__keras_model_to_estimator.py': [],  # model_to_estimator
    'tensorflow+ecosystem__distribution_strategy__keras_model_to_estimator_client.py': [],
    'tensorflow+ecosystem__spark__spark-tensorflow-distributor__examples__simple__example.py': [],
    # TF_CONFIG written (l.327) in set_tf_config, called before run_tensorflow_program makes the MWMS (l.284)
    'tensorflow+ecosystem__spark__spark-tensorflow-distributor__spark_tensorflow_distributor__mirrored_strategy_runner.py': [],
}

_NB19 = 'ageron+handson-ml3__19_training_and_deploying_at_scale.ipynb'
_PRE = 'built, compiled and trained (and saved) before any strategy exists, never used with one (issue 17 ' \
       'section 1); the older wording of docs/rules.md MG101 counts "a model built before the strategy"'
_WRITEFILE = 'code of a %%writefile cell: a separate script the notebook writes and launches, not notebook code'

DEBATABLE = {
    _NB19: [
        ((6, (13, 18)), 'MG101', _PRE), ((6, (19, 21)), 'MG102', _PRE), ((6, 20), 'MG103', _PRE),
        ((6, 22), 'MG201', _PRE), ((24, (4, 10)), 'MG101', _PRE), ((24, (11, 13)), 'MG102', _PRE),
        ((24, 12), 'MG103', _PRE), ((24, (14, 15)), 'MG201', _PRE),
        ((68, 4), 'MG104', 'reload outside the scope only inspected (type(model.weights[0])): issue 17 deliberate'),
        ((80, (1, 45)), 'MG404', _WRITEFILE), ((85, (1, 55)), 'MG404', _WRITEFILE),
        ((80, (1, 45)), 'MG403', _WRITEFILE), ((85, (1, 55)), 'MG403', _WRITEFILE),
        ((80, (1, 45)), 'MG201', _WRITEFILE), ((85, (1, 55)), 'MG201', _WRITEFILE),
        ((89, (1, 55)), 'MG201', _WRITEFILE), ((96, (1, 80)), 'MG201', _WRITEFILE),
    ],
    'CosmoVicky+FL_Challenge__MultiWorkerClassification.ipynb': [
        ((7, (42, 43)), 'MG404', _WRITEFILE + ' (the same main.py as Docker/main.py, MG404 there)'),
        ((10, 1), 'MG401', 'launcher: TF_CONFIG set three times for workers started with %%bash --bg'),
        ((16, 2), 'MG401', 'same'), ((18, 2), 'MG401', 'same'),
    ],
    'SaKi1309+ML_Notebooks__GAN_distributed_training.ipynb': [
        ((8, 27), 'MG101', 'model = Generator() outside the scope only to print summary()/plot_model (dead demo '
                           'copy, issue 17 "dead objects"); the trained GAN builds its own inside'),
        ((10, 21), 'MG101', 'same for Discriminator()'),
    ],
    'google+uncertainty-baselines__baselines__cifar__deterministic.py': [
        (446, 'MG103', 'ms_per_example Mean() outside the scope, updated on the host; the eval step_fn loops '
                       'over the dict but only updates names containing an ood dataset name'),
        (447, 'MG103', 'same'),
    ],
    'google+uncertainty-baselines__baselines__cifar__dropout.py': [(310, 'MG103', 'same host-side timing metric')],
    'google+uncertainty-baselines__baselines__cifar__sngp.py': [(618, 'MG103', 'same host-side timing metric')],
    'google+uncertainty-baselines__baselines__imagenet__deterministic.py': [(372, 'MG103', 'same host-side timing metric')],
    'google+uncertainty-baselines__baselines__diabetic_retinopathy_detection__deterministic.py': [
        (264, 'MG103', 'same host-side timing metric'),
        ((258, 262), 'MG103', 'CPU-eval metrics built outside on purpose ("for CPU eval") by another module'),
    ],
}
