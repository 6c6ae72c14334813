"""Hand labels for the real files of red-team round 2 under redteam/real2/ (evaluation only, not committed).

Same format as ../labels/labels.py: LABELS[file] = list of (where, code, reason). For .py files `where`
is a line or an inclusive (first, last) range of lines of one statement; for notebooks it is
(cell, line-or-range), cells counting code cells only, 1-based. A list gives alternative places.
File names are `owner+repo__path__with__slashes`. Labels follow docs/rules.md and
tests/corpus/README.md and were written before running the checker.
"""

LABELS = {
    # --- ashishpatel26/tpu_tf2: Colab TPU helper package and its demo notebook
    'ashishpatel26+tpu_tf2__demo_colab.ipynb': [
        ((7, 2), 'MG201', 'model.fit(x_train, y_train, batch_size=512) on arrays; strategy (imported from the helper '
                          'module) is entered in c6'),
    ],
    'ashishpatel26+tpu_tf2__tpu_tf2__tpu.py': [],
    # --- bela127/tf-custom-multi-gpu-training: custom loop library driven by callbacks
    'bela127+tf-custom-multi-gpu-training__src__tf_cmgt__eval_distributed.py': [
        (47, 'MG105', 'step = tf.Variable(0) made before dist_strat.scope(), read in the replica function '
                      'singel_device_eval_step (step % callback_step) run by dist_strat.run'),
    ],
    'bela127+tf-custom-multi-gpu-training__src__tf_cmgt__train_distributed.py': [
        (47, 'MG105', 'step = tf.Variable(0) made before dist_strat.scope(), read in the replica function '
                      'singel_device_train_step and handed to the checkpoint helper'),
        (48, 'MG105', 'lr = tf.Variable(learning_rate) made before the scope and passed into the replica function '
                      '(callbacks.input_pre(batch, lr), loss_pre(..., lr))'),
    ],
    # --- nand0p/nomadAI: copies of the TF multi-worker tutorial and a pets MobileNet trainer
    'nand0p+nomadAI__train__docker__distributed.001.py': [],
    'nand0p+nomadAI__train__docker__multi-worker.py': [],
    'nand0p+nomadAI__train__exec__chief.py': [],
    'nand0p+nomadAI__train__exec__evaluator.py': [],
    'nand0p+nomadAI__train__exec__worker.py': [],
    # --- sayakpaul/Distributed-Training-in-TensorFlow-2-with-AI-Platform
    'sayakpaul+Distributed-Training-in-TensorFlow-2-with-AI-Platform__trainer__model_training.py': [],
    # --- sseung0703/TF2-jit-compile-on-multi-gpu: custom loop split over modules
    'sseung0703+TF2-jit-compile-on-multi-gpu__op_utils.py': [],
    'sseung0703+TF2-jit-compile-on-multi-gpu__test.py': [],
    'sseung0703+TF2-jit-compile-on-multi-gpu__train.py': [],
    'sseung0703+TF2-jit-compile-on-multi-gpu__utils.py': [],
    # --- tensorflow/docs: guides and r1 tutorials not used by round 1
    'tensorflow+docs__site__en__guide__estimator.ipynb': [],
    'tensorflow+docs__site__en__guide__migrate__tpu_embedding.ipynb': [],
    'tensorflow+docs__site__en__guide__random_numbers.ipynb': [],
    'tensorflow+docs__site__en__r1__guide__distribute_strategy.ipynb': [
        ((10, 1), 'MG201', '.batch(10) given to fit/evaluate of the model built in the scope (c9)'),
        ((11, 3), 'MG201', 'model.fit(inputs, targets, batch_size=10)'),
    ],
    'tensorflow+docs__site__en__r1__guide__keras.ipynb': [],
    'tensorflow+docs__site__en__r1__tutorials__distribute__tpu_custom_training.ipynb': [
        ((10, 22), 'MG201', '.batch(BATCH_SIZE=32) given to strategy.make_dataset_iterator (TF1 spelling of '
                            'experimental_distribute_dataset); deliberate literal global batch, like input.ipynb'),
        ((10, 25), 'MG201', 'test dataset, same'),
    ],
    # --- tensorflow/examples
    'tensorflow+examples__tensorflow_examples__lite__model_maker__core__task__audio_classifier.py': [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__core__task__model_spec__object_detector_spec.py': [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__core__task__model_spec__text_spec.py': [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__core__task__object_detector.py': [],
    ('tensorflow+examples__tensorflow_examples__lite__model_maker__third_party__efficientdet__backbone__'
     'train_backbone.py'): [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__third_party__efficientdet__keras__eval.py': [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__third_party__efficientdet__keras__train.py': [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__third_party__efficientdet__keras__train_lib.py': [],
    'tensorflow+examples__tensorflow_examples__lite__model_maker__third_party__efficientdet__main.py': [],
    'tensorflow+examples__tensorflow_examples__models__densenet__distributed_train.py': [],
    'tensorflow+examples__tensorflow_examples__models__nmt_with_attention__distributed_train.py': [],
    # --- tensorflow/tfx: trainer modules not used by round 1
    'tensorflow+tfx__docs__tutorials__tfx__gcp__vertex_pipelines_vertex_training.ipynb': [],
    'tensorflow+tfx__tfx__examples__airflow_workshop__taxi__setup__dags__taxi_utils.py': [],
    'tensorflow+tfx__tfx__examples__bert__mrpc__bert_mrpc_utils.py': [],
    'tensorflow+tfx__tfx__examples__chicago_taxi_pipeline__taxi_utils.py': [],
    'tensorflow+tfx__tfx__examples__custom_components__slack__example__taxi_utils_slack.py': [],
    'tensorflow+tfx__tfx__examples__penguin__penguin_utils_cloud_tuner.py': [],
    'tensorflow+tfx__tfx__examples__penguin__penguin_utils_keras.py': [
        # Was MG106 at l.96-103 (tuner_fn's RandomSearch): relabelled by issue 17, which names this
        # very shape as not judged: tuner_fn never sees the strategy run_fn makes for itself.
    ],
    'tensorflow+tfx__tfx__experimental__templates__penguin__models__model.py': [],
    'tensorflow+tfx__tfx__experimental__templates__taxi__models__keras_model__model.py': [],
    # --- TranNhiem/semi-self-supervise-project: SSL custom loops, main() defined and called inside the scope
    'TranNhiem+semi-self-supervise-project__Conv_ViT_SSL_Contrastive_Multi_View_Test.py': [],
    'TranNhiem+semi-self-supervise-project__Conv_ViT_SSL_Contrastive_Test.py': [],
    'TranNhiem+semi-self-supervise-project__Conv_ViT_SSL_Non_Contrastive_Clustering_assignment.py': [],
    'TranNhiem+semi-self-supervise-project__Conv_ViT_SSL_Non_Contrastive_Multi_Views_Test.py': [],
    'TranNhiem+semi-self-supervise-project__Conv_ViT_SSL_Non_Contrastive_Test.py': [],
    'TranNhiem+semi-self-supervise-project__Conv_ViT_train_test.py': [],
    'TranNhiem+semi-self-supervise-project__Conv_perceiver_train_test.py': [],
    'TranNhiem+semi-self-supervise-project__Perceiver_train_test.py': [],
    'TranNhiem+semi-self-supervise-project__Training_strategy__Distributed_training.py': [],
    'TranNhiem+semi-self-supervise-project__Training_strategy__Distributed_training_processing_data_XLA.py': [],
    # Corrected after the first checker run (label error, not a checker error): line 337 reads
    # `with tf.GradientTape() as tape():`, which Python refuses, so MG000 is right.
    'TranNhiem+semi-self-supervise-project__self_distillation_training__Knowledge_distillation_self_supervised.py': [
        (337, 'MG000', 'syntax error: `with tf.GradientTape() as tape():` (cannot assign to function call)'),
    ],
    # --- google-research/simclr
    'google-research+simclr__colabs__intriguing_properties__randbits_mnist.ipynb': [
        ((3, 7), 'MG301', "get_cls_loss returns tf.reduce_mean of a reduction=NONE loss; the file's own loss helper, "
                          'a term of the loss differentiated in step_fn run by strategy.run'),
        # (3, 25) `return tf.reduce_mean(loss), sim` was labelled MG301 before the first run and dropped after
        # it: `loss` there is already a scalar (a sum of two get_cls_loss means), so it is not a mean of
        # per-example losses; the per-replica mean is the one at (3, 7). Label error, not a checker miss.
        ((5, 32), 'MG101', 'ConvN (keras.Model subclass of the file) built in train_and_eval, no scope anywhere; '
                           'trained through strategy.run'),
        ((5, 40), 'MG103', 'Adam made outside any scope, used in step_fn run by strategy.run'),
        ((5, 50), 'MG103', 'Mean metrics made by a dict comprehension outside the scope, updated in step_fn'),
        ((5, 52), 'MG103', 'SparseCategoricalAccuracy metrics made by a dict comprehension outside the scope, '
                           'updated in step_fn'),
    ],
    'google-research+simclr__tf2__run.py': [],
    # --- nghiatd16/DCGAN-TF2.0-DistributedTraining
    'nghiatd16+DCGAN-TF2.0-DistributedTraining__train.py': [
        (24, 'MG201', '.batch(BATCH_SIZE=256) given to experimental_distribute_dataset'),
    ],
    # --- sayakpaul/Adaptive-Gradient-Clipping: Kaggle/Colab TPU notebooks
    'sayakpaul+Adaptive-Gradient-Clipping__AGC.ipynb': [
        ((9, 4), 'MG102', 'AGCModel built in the scope (c9:2), compile after the with block'),
    ],
    'sayakpaul+Adaptive-Gradient-Clipping__BatchNorm.ipynb': [
        ((8, 4), 'MG102', 'model built in the scope (c8:2), compile after the with block'),
    ],
    # --- SiarheiKachatkou/kagle_melanoma_tf_tpu: scope returned by a helper in another module
    'SiarheiKachatkou+kagle_melanoma_tf_tpu__config__runtime.py': [],
    'SiarheiKachatkou+kagle_melanoma_tf_tpu__model__chose_lr.py': [],
    'SiarheiKachatkou+kagle_melanoma_tf_tpu__tools__main.py': [],
    # --- king398/Cassava: exported Kaggle TPU notebook fragment (strategy defined in an earlier cell)
    'king398+Cassava__notebooks__modelfi.py': [],
    # --- second batch, labelled before the checker ran on it
    # srihari-humbarwadi: RetinaNet / AdaIN trainers built by a strategy factory, stored as self.distribute_strategy
    'srihari-humbarwadi+retinanet-tensorflow2.x__notebooks__multi_gpu_inference.ipynb': [],
    'srihari-humbarwadi+retinanet-tensorflow2.x__retinanet__distribute.py': [],
    'srihari-humbarwadi+retinanet-tensorflow2.x__retinanet__executor.py': [],
    'srihari-humbarwadi+adain-tensorflow2.x__adain__distribute.py': [],
    'srihari-humbarwadi+adain-tensorflow2.x__adain__trainer.py': [],
    # Changyu-Guo: a copy of tf-models' distribution utils (get_strategy_scope helper)
    'Changyu-Guo+Transformer-With-TensorFlow2__utils__distrib_utils.py': [],
    # keras-team/keras-tuner: the library's Tuner, entering the strategy through a @contextmanager helper
    'keras-team+keras-tuner__keras_tuner__engine__tuner.py': [],
    # jraman/ml-tryouts: Colab TPU tutorial copy
    'jraman+ml-tryouts__tensorflow__tutorial__tpu.ipynb': [
        ((9, 12), 'MG201', 'get_tfds_dataset(batch_size=200): every caller relies on the default; the train '
                           'dataset is given to tpumodel.fit (judgement 29: reported at the helper\'s .batch line)'),
        ((9, 13), 'MG201', 'test dataset of the same helper, given to fit as validation_data'),
        # c7:1 cpumodel = create_model() outside and compiled: a deliberate unreplicated copy beside tpumodel,
        # never trained or handed on, only inspected with _get_distribution_strategy(): not labelled (judgement 25).
    ],
    # --- third batch, labelled before the checker ran on it: sayakpaul's Kaggle/Colab TPU notebooks and trainer
    'sayakpaul+FunMatch-Distillation__funmatch_distillation.ipynb': [],
    'sayakpaul+FunMatch-Distillation__train_bit.ipynb': [
        ((10, 8), 'MG103', 'SGD optimizer made outside the scope, passed to compile inside it (c11:6)'),
    ],
    'sayakpaul+FunMatch-Distillation__train_bit_keras_tuner.ipynb': [],
    'sayakpaul+Sharpness-Aware-Minimization-TensorFlow__SAM.ipynb': [
        ((10, 3), 'MG102', 'SAMModel built in the scope (c10:2), compile after the with block'),
        ((13, 4), 'MG102', 'baseline model built in the scope (c13:2), compile after the with block'),
    ],
    'sayakpaul+CI-CD-for-Model-Training__build__penguin_trainer.py': [],
}
